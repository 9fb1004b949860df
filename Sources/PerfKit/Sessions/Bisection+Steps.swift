import Foundation
import PerfKitCore

extension Bisection {
    /// Counts the bisected series at one commit after another in the bisect worktree.
    ///
    /// GOOD first (its value is the reference), then each commit git checks out.
    struct StepCounter {
        let selector: String
        let countSamples: Int?
        /// The build system each step builds with (nil: SwiftPM's default).
        let buildSystem: BuildSystem?
        let setup: CountingRun.Setup
        let progress: (String) -> Void
        /// The worktree's package folder.
        private(set) var tree: String
        /// The test the series belongs to.
        let testID: String
        /// The series.
        private(set) var series: SeriesID
        /// GOOD's median and process spread.
        private var goodValue: Double = 0
        private var goodSpread: Double = 0
        /// GOOD's samples of the series in its first process.
        ///
        /// A commit whose first process counts the same is good with no further process
        /// (``CountingRun/pairedSummary``).
        private var goodFirst: [Double] = []
        /// Every counted step, GOOD first.
        private(set) var steps: [Step] = []

        /// Builds and counts GOOD.
        init(
            good: String, goodName: String, selector: String, countSamples: Int?, buildSystem: BuildSystem?,
            setup: CountingRun.Setup, progress: @escaping (String) -> Void
        ) throws {
            self.selector = selector
            self.countSamples = countSamples
            self.buildSystem = buildSystem
            self.setup = setup
            self.progress = progress
            let revision = try Self.prepare(good, buildSystem: buildSystem, progress: progress)
            tree = revision.directory
            // Absolute: the bundle runs with the worktree as its working directory.
            let bundle = URL(fileURLWithPath: try revision.build(progress: progress)).path
            let testName = String(selector.prefix { $0 != " " })
            let ids = try CountingRun.testIDs(bundle: bundle, directory: revision.directory, matching: ".").filter {
                $0 == testName || SeriesID.shortTest($0) == testName || $0.hasSuffix("." + testName)
            }
            guard ids.count == 1, let testID = ids.first else {
                throw OrchestrationError.cannotDo(
                    "--series '\(selector)': \(ids.isEmpty ? "no test" : "\(ids.count) tests") named '\(testName)' at "
                        + "\(goodName)"
                )
            }
            self.testID = testID
            series = SeriesID(test: testID, measurement: "", arm: "", phase: .warm, metric: Metric.instructions.name)
            let goodTests = try count(good, bundle: bundle).tests
            series = try Bisection.choose(selector, in: goodTests)
            goodFirst = firstSamples(goodTests)
            guard let value = value(goodTests) else {
                throw OrchestrationError.cannotDo("--series '\(selector)': not counted at \(goodName)")
            }
            goodValue = value
            goodSpread = SeriesTable(goodTests).series[series]?.processSpread ?? 0
            steps = [
                Step(
                    commit: good, value: value, changed: false, tests: goodTests,
                    firstProcessValue: Self.median(goodFirst))
            ]
        }

        /// `commit` checked out in the bisect worktree, to be built with `buildSystem`.
        static func prepare(_ commit: String, buildSystem: BuildSystem?, progress: (String) -> Void) throws -> Revision
        {
            var revision = try Revision.prepare(commit, worktree: Bisection.worktree, progress: progress)
            revision.buildSystem = buildSystem
            return revision
        }

        /// Builds and counts `commit` (checked out by git bisect) and returns git bisect's verdict.
        ///
        /// `bad` when it differs from GOOD, `good` when not, `skip` when it does not build or the series is not there
        /// (the build's error is named on the progress line).
        mutating func judge(_ commit: String) throws -> String {
            let revision = try Self.prepare(commit, buildSystem: buildSystem, progress: progress)
            let built: String
            do { built = try revision.build(progress: progress) } catch {
                progress("perfkit bisect: \(commit.prefix(12)) skipped: \(error)")
                return "skip"
            }
            let (tests, same) = try count(commit, bundle: URL(fileURLWithPath: built).path)
            guard let v = value(tests) else { return "skip" }
            let changed = differs(v, tests)
            steps.append(step(commit, value: v, changed: changed, tests: tests, same: same))
            return changed ? "bad" : "good"
        }

        /// The step of `commit`, counted now when git named it without having tested it (BAD).
        mutating func step(at commit: String) throws -> Step {
            if let step = steps.first(where: { $0.commit == commit }) { return step }
            let revision = try Self.prepare(commit, buildSystem: buildSystem, progress: progress)
            let (tests, same) = try count(
                commit, bundle: URL(fileURLWithPath: try revision.build(progress: progress)).path)
            guard let v = value(tests) else {
                throw OrchestrationError.cannotDo("--series '\(selector)': not counted at \(commit.prefix(12))")
            }
            let counted = step(commit, value: v, changed: differs(v, tests), tests: tests, same: same)
            steps.append(counted)
            return counted
        }

        /// A later step; only GOOD's line shows a first process's median, so only GOOD's step carries one.
        private func step(_ commit: String, value: Double, changed: Bool, tests: [TestResult], same: Bool) -> Step {
            Step(commit: commit, value: value, changed: changed, tests: tests, identicalToGoodFirst: same)
        }

        /// Counts the test at `commit`.
        ///
        /// Its first process, then its check or trial and placements (GOOD's always, a later commit's when its first
        /// process counted the series differently); `same` when it had none because its first process counted as GOOD's
        /// did.
        private func count(_ commit: String, bundle: String) throws -> (tests: [TestResult], same: Bool) {
            progress("perfkit bisect: counting \(SeriesID.shortTest(testID)) at \(commit.prefix(12))…")
            let request = CountingRun.Request(
                bundle: bundle, directory: tree, filter: NSRegularExpression.escapedPattern(for: testID),
                countSamples: countSamples, setup: setup)
            let started = try CountingRun.start(request, progress: progress)
            defer { started.discard() }
            let same = !goodFirst.isEmpty && firstSamples(started.tests) == goodFirst
            if same {
                progress(
                    "perfkit bisect: \(commit.prefix(12)) counted the series as GOOD did in every sample (unchanged "
                        + "exactly, no further process)")
            }
            let counted = try CountingRun.finish(started, followingUp: same ? [] : [testID], progress: progress)
            // The dumps of a step are not kept; litter at worst.
            try? FileManager.default.removeItem(
                atPath: URL(fileURLWithPath: counted.dumps).deletingLastPathComponent().path)
            return (counted.tests, same)
        }

        /// The series' samples of the first process (all of them when the series does not say which process took each).
        private func firstSamples(_ tests: [TestResult]) -> [Double] {
            guard let found = SeriesTable(tests).series[series] else { return [] }
            guard let processes = found.processes, processes.count == found.values.count else { return found.values }
            return zip(found.values, processes).filter { $0.1 == 0 }.map(\.0)
        }

        private func value(_ tests: [TestResult]) -> Double? {
            SeriesTable(tests).series[series].flatMap { Self.median($0.values) }
        }

        private static func median(_ values: [Double]) -> Double? {
            values.isEmpty ? nil : Quantile.percentile(sorted: values.sorted(), 50)
        }

        /// The comparison's rule: widened when the count moved with the heap (at GOOD or at the step).
        private func differs(_ v: Double, _ tests: [TestResult]) -> Bool {
            let spread = max(goodSpread, SeriesTable(tests).series[series]?.processSpread ?? 0)
            return Comparison.countsDiffer(goodValue, v, tolerance: Comparison.countTolerance(spread: spread))
        }
    }
}
