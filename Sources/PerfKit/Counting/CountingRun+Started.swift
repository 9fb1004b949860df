import Foundation
import PerfKitCore

/// A counting run in two steps.
///
/// Each test's first process (`start`), then
/// the checks, placement trials and placements of the tests a caller names (``finish(_:followingUp:progress:)``). A
/// counting run of one side names every test; a command that counts two sides (`abba --counts`, `bisect --counts`)
/// names only the tests whose first processes counted differently.
///
/// A test whose two sides counted the same instructions in every sample is unchanged exactly: the
/// two binaries did the same work where the kernel loads them, and what the test would count at
/// other placements cannot turn that into a change. Its follow-ups, 75.2 of the 198 s of process
/// time of a counting run of the calendar suite (Evidence), are left out.
extension CountingRun {
    /// A counting run stopped after each test's first process, its folder kept until
    /// ``finish(_:followingUp:progress:)`` or ``discard()``.
    package struct Started: Sendable {
        let root: String
        let processes: [CountingProcess]
        let outcomes: [CountingProcess.Outcome]
        let width: Int
        let setup: Setup
        let environment: [String: String]
        let directory: String
        let filter: String

        /// Each test as its first process counted it (samples only: the dumps are gathered by
        /// ``finish(_:followingUp:progress:)``).
        package var tests: [TestResult] { outcomes.flatMap(\.tests) }

        /// Removes the run's folder (a side that is not finished, after the other failed).
        package func discard() { CountingRun.cleanUp(root, keepingDumps: false) }
    }

    /// Counts each test the request names in its first process and stops there.
    ///
    /// The same processes, environment and order as a counting run's first processes, with no check, trial or placement
    /// yet. The tests' follow-ups run in ``finish(_:followingUp:progress:)``, once every first process has ended.
    /// - Parameters:
    ///   - request: What to count and how.
    ///   - progress: Receives one line when it starts.
    /// - Returns: The started run, to compare with the other side's (``testsToFollowUp(_:_:)``) and finish.
    /// - Throws: ``OrchestrationError`` when valgrind fails.
    package static func start(_ request: Request, progress: (String) -> Void = { _ in }) throws -> Started {
        let staged = try stage(request, progress: progress)
        let (setup, directory, filter) = (request.setup, request.directory, request.filter)
        do {
            // One stage for the whole counting run: its first processes, then the checks and placements they ask for.
            ProgressBoard.shared.startStage(total: 0, of: .processes)
            let (outcomes, _) = try CountingProcess.runAll(
                staged.processes, width: staged.width, root: staged.root, setup: setup,
                environment: staged.environment, directory: directory)
            return Started(
                root: staged.root, processes: staged.processes, outcomes: outcomes, width: staged.width, setup: setup,
                environment: staged.environment, directory: directory, filter: filter)
        } catch {
            cleanUp(staged.root, keepingDumps: false)
            throw error
        }
    }

    /// The test IDs (``TestResult/functionID``) that need their follow-ups on both sides.
    ///
    /// A count series of one side the other lacks, a sample that differs by a single instruction, or a heap that could
    /// not be pinned on either side (its setup promises a check for every test).
    package static func testsToFollowUp(_ a: Started, _ b: Started) -> Set<String> {
        func counts(_ started: Started) -> [String: [SeriesID: [Double]]] {
            Dictionary(grouping: started.tests, by: \.functionID).mapValues { tests in
                SeriesTable(tests).series.filter { $0.value.metric.isSimulated }.mapValues(\.values)
            }
        }
        let (left, right) = (counts(a), counts(b))
        let unpinned = (a.outcomes + b.outcomes).filter { $0.heapUnpinned != nil }.flatMap(\.tests).map(\.functionID)
        let differing = Set(left.keys).union(right.keys).filter { left[$0] != right[$0] }
        return differing.union(unpinned)
    }

    /// Runs the follow-ups of the tests `ids` names and gathers every process's results.
    ///
    /// Runs the follow-ups of the tests `ids` names (check or placement trial, then placements,
    /// ``followUps(of:_:first:root:)``) and gathers every process's results and dumps, as a
    /// counting run does; the folder is removed but for its dumps.
    /// - Returns: As ``measure(_:progress:)``.
    /// - Throws: ``OrchestrationError`` when valgrind fails or nothing was measured.
    package static func finish(
        _ started: Started, followingUp ids: Set<String>, progress: (String) -> Void = { _ in }
    ) throws -> (tests: [TestResult], dumps: String, status: Int32) {
        var keep = false
        defer { cleanUp(started.root, keepingDumps: keep) }
        let root = started.root
        let firsts = Dictionary(
            zip(started.processes, started.outcomes).map { ($0.0.test, $0.1) }, uniquingKeysWith: { first, _ in first })
        let seconds = zip(started.processes, started.outcomes).filter { ids.contains($0.0.id) }.flatMap {
            followUps(of: $0.0, $0.1, first: $0.1, root: root)
        }
        let (secondOutcomes, thirds) = try CountingProcess.runAll(
            seconds, width: max(1, min(started.width, seconds.count)), root: root, setup: started.setup,
            environment: started.environment, directory: started.directory,
            followUp: { process, outcome in
                firsts[process.test].map { followUps(of: process, outcome, first: $0, root: root) } ?? []
            })
        let tests = Set(started.processes.map(\.test)).count
        let checks = zip(started.processes, started.outcomes).filter { ids.contains($0.0.id) && $0.1.needsShiftCheck }
        if !checks.isEmpty { progress(checkLine(checks.map(\.1), checks: checks.count, of: tests)) }
        let followed = zip(seconds, secondOutcomes).map { (process: $0.0, outcome: $0.1) } + thirds
        if let line = placementLine(followed, of: tests) { progress(line) }
        // A placement trial only decides whether a test is counted at more placements: its one sample is not joined.
        let joined = followed.filter { !$0.process.isTrial }
        let gathered = try gathered(
            started.processes + joined.map(\.process), started.outcomes + joined.map(\.outcome), root: root,
            filter: started.filter, directory: started.directory, progress: progress)
        keep = true
        return gathered
    }

    /// How `abba --counts` counts its two sides, in one phrase (help, reports and README, checked by `HelpTests`).
    package static let pairedSummary =
        "each test's first processes compared between the two sides before anything else is counted: a test that "
        + "counted the same instructions in every sample is unchanged exactly and gets no check, trial or placement "
        + "on either side"
}
