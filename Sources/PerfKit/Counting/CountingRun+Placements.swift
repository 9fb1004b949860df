import Foundation
import PerfKitCore

/// Counting a test at several placements of the bundle's code.
///
/// Replication where a count that follows code addresses varies (between builds, as between placements), not within one
/// process.
extension CountingRun {
    /// How many processes count a test whose count moved beyond the tolerance with the bundle elsewhere.
    ///
    /// How many processes count a test whose check or trial moved a count beyond the tolerance when
    /// the bundle loaded elsewhere (``movedBeyondTolerance(_:_:)``): the first, the check, and three
    /// more placements (``CountingProcess/lowestAddress(of:)``). Five per side let a comparison of
    /// two runs judge the series from its per-process medians (Mann–Whitney, one-sided p down to
    /// 0.004), as a timing series is judged from its processes. Measured: the calendar's
    /// playback, keyed by key paths, counted 2,717,576 / 2,682,102 / 2,773,277 / 2,773,277 / 2,682,089
    /// at its five placements and moved 3.4% in a build that only added an unused function, so one
    /// other placement (a range of two values) was one draw of where a build puts the code.
    package static let placementsPerMovingTest = 5

    /// The processes to run after `process` (whose outcome is `outcome`; `first` is its test's first process's).
    ///
    /// After the first: a check with the heap shifted and the bundle loaded elsewhere when the test needs one
    /// (``shiftCheck(of:_:root:)``), else a trial of its first samples with the bundle loaded elsewhere
    /// (``placementTrial(of:root:)``). After either, when it moved a count beyond the tolerance, the test's remaining
    /// placements (the check's run stands as placement 1, the trial's does not); after those, none.
    package static func followUps(
        of process: CountingProcess, _ outcome: CountingProcess.Outcome, first: CountingProcess.Outcome, root: String
    ) -> [CountingProcess] {
        switch process.placement {
        case 0:
            guard var next = shiftCheck(of: process, outcome, root: root) ?? placementTrial(of: process, root: root)
            else { return [] }
            next.decidesPlacements = true
            return [next]
        case 1:
            // Only the check or the trial decides; the placements it asked for (1 after a trial among them) do not.
            guard process.decidesPlacements, movedBeyondTolerance(first, outcome) else { return [] }
            return ((process.isTrial ? 1 : 2)..<placementsPerMovingTest).map { placement in
                CountingProcess(
                    test: process.test, id: process.id, pad: checkPad,
                    folder: root + CountingProcess.folderName(process.test, checkPad) + "-\(placement)",
                    placement: placement)
            }
        default: return []
        }
    }

    /// A placement trial of a test that gets no check.
    ///
    /// The first round of its first measurement's first phase with the bundle loaded through the dynamic loader, the
    /// harness's heap as it was; nil without a loader. A count keyed by what sits in the bundle (a type's identity, a
    /// key path, a string literal's address) moves there as it would in another build, whether or not the test uses the
    /// runtime's shared lookups.
    static func placementTrial(of process: CountingProcess, root: String) -> CountingProcess? {
        guard CountingProcess.loader != nil else { return nil }
        var trial = CountingProcess(
            test: process.test, id: process.id, pad: 0,
            folder: root + CountingProcess.folderName(process.test, 0) + "-trial", placement: 1)
        trial.isTrial = true
        return trial
    }

    /// Whether `other` counted differently from `first` at all, so a test whose counts repeat gets the same placements.
    ///
    /// ``Comparison/countsDiffer(_:_:tolerance:floor:)`` with no tolerance: every run counts such a test at the same
    /// placements.
    static func movedBeyondTolerance(_ first: CountingProcess.Outcome, _ other: CountingProcess.Outcome) -> Bool {
        if !other.trialCounts.isEmpty {
            let before = CountingProcess.dumpTotals(in: first.folder)
            return zip(before, other.trialCounts).contains { Comparison.countsDiffer(Double($0), Double($1)) }
        }
        func medians(_ outcome: CountingProcess.Outcome) -> [SeriesID: Double] {
            var result: [SeriesID: Double] = [:]
            for test in outcome.tests {
                for measurement in test.measurements {
                    for series in measurement.series where series.metric.isSimulated && !series.values.isEmpty {
                        let id = SeriesID(
                            test: test.id, measurement: measurement.name, arm: series.arm, phase: series.phase,
                            metric: series.metric.name)
                        // No finite sample: the series has no first-process value to compare.
                        result[id] = try? Quantile.median(series.values)
                    }
                }
            }
            return result
        }
        let before = medians(first), after = medians(other)
        return after.contains { key, value in
            before[key].map { Comparison.countsDiffer($0, value) } ?? false
        }
    }

    /// The progress line naming the tests counted at more placements, or nil when none was.
    static func placementLine(
        _ followUps: [(process: CountingProcess, outcome: CountingProcess.Outcome)], of tests: Int
    )
        -> String?
    {
        let moving = Set(followUps.filter { $0.process.placement >= 2 }.map(\.process.id)).sorted()
        guard !moving.isEmpty else { return nil }
        return "perfkit run: \(moving.count) of \(tests) tests counted differently when the bundle loaded elsewhere "
            + "(\(moving.prefix(3).joined(separator: ", "))\(moving.count > 3 ? ", …" : "")): their counts follow code "
            + "addresses, so each was counted at \(placementsPerMovingTest) placements, the same in every run, and is "
            + "compared placement by placement"
    }
}
