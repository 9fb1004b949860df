import Foundation

/// `perfkit bisect GOOD BAD --series NAME`: the first commit at which a simulated count series
/// changed, found by driving `git bisect` in a worktree of its own with a counting run of the one
/// test at each step (the user's working tree and its bisect state are never touched).
///
/// Counts do not vary between runs, so each step is decided by one counting run: its median per
/// call against GOOD's, beyond the count tolerance (``Comparison/countsDiffer(_:_:tolerance:floor:)``).
/// GOOD is counted once and BAD only when git names it as the culprit without having tested it,
/// so a range of n commits takes about ⌈log2 n⌉ + 1 counting runs.
package struct Bisection: Sendable {
    /// One counted commit.
    package struct Step: Sendable {
        /// The commit.
        package var commit: String
        /// The series' median per call there.
        package var value: Double
        /// Whether it differs from GOOD's.
        package var changed: Bool
        /// The test's results (with the profile "where it went" reads).
        package var tests: [TestResult]
    }

    /// The outcome.
    package struct Outcome: Sendable {
        /// The series bisected.
        package var series: SeriesID
        /// GOOD's step and every later one, in the order counted.
        package var steps: [Step]
        /// The first commit whose count differs from GOOD's; nil when BAD does not differ.
        package var culprit: String?
        /// The culprit's subject line.
        package var subject: String
        /// The counted step of the culprit's parent (GOOD's when the parent is GOOD).
        package var parent: Step?
        /// The culprit's step.
        package var culpritStep: Step?
    }

    /// The worktree folder name under ``Revision/worktreeRoot``.
    package static let worktree = "bisect"

    /// Bisects.
    /// - Parameters:
    ///   - good: A revision where the series has its old value.
    ///   - bad: A later revision (GOOD must be its ancestor).
    ///   - selector: The series: a test (`Suite/test()`, with or without its module) alone when the
    ///     test has one count series, else the name `history show` prints (`Suite/test() measurement [arm, phase] instructions`).
    ///   - samples: Samples per counting run (default: the test's own).
    ///   - progress: Receives one line per step.
    /// - Returns: The outcome.
    /// - Throws: ``OrchestrationError``: unknown revisions, GOOD not an ancestor, no such series, a timing series, a failed build or count.
    package static func run(
        good: String, bad: String, selector: String, samples: Int? = nil, progress: (String) -> Void = { _ in }
    ) throws -> Outcome {
        // A named series whose metric is not a count is refused before anything is built.
        if selector.contains(" ["), let metric = selector.split(separator: " ").last,
            metric != Substring(Metric.instructions.name)
        {
            throw OrchestrationError.cannotDo(timingRefusal(selector))
        }
        let goodCommit = try Revision.resolve(good), badCommit = try Revision.resolve(bad)
        guard ChildProcess.output(["git", "merge-base", "--is-ancestor", goodCommit, badCommit]) != nil else {
            throw OrchestrationError.cannotDo(
                "\(good) is not an ancestor of \(bad): bisect needs GOOD before BAD on one history")
        }
        let setup = try CountingRun.prepare(directory: ".", scratch: Revision.scratchPath(), progress: progress)
        var revision = try Revision.prepare(goodCommit, worktree: worktree, progress: progress)
        // Absolute: the bundle runs with the worktree as its working directory.
        var bundle = URL(fileURLWithPath: try revision.build(progress: progress)).path
        let testName = String(selector.prefix { $0 != " " })
        let ids = try CountingRun.testIDs(bundle: bundle, directory: revision.directory, matching: ".").filter {
            $0 == testName || SeriesID.shortTest($0) == testName || $0.hasSuffix("." + testName)
        }
        guard ids.count == 1, let testID = ids.first else {
            throw OrchestrationError.cannotDo(
                "--series '\(selector)': \(ids.isEmpty ? "no test" : "\(ids.count) tests") named '\(testName)' at \(good)"
            )
        }
        func count(_ commit: String, bundle: String, directory: String) throws -> [TestResult] {
            progress("perfkit bisect: counting \(SeriesID.shortTest(testID)) at \(commit.prefix(12))…")
            let counted = try CountingRun.measure(
                bundle: bundle, directory: directory, filter: NSRegularExpression.escapedPattern(for: testID),
                samples: samples, setup: setup,
                progress: progress)
            try? FileManager.default.removeItem(
                atPath: URL(fileURLWithPath: counted.dumps).deletingLastPathComponent().path)
            return counted.tests
        }
        let goodTests = try count(goodCommit, bundle: bundle, directory: revision.directory)
        let series = try choose(selector, in: goodTests)
        func value(_ tests: [TestResult]) -> Double? {
            SeriesTable(tests).series[series].map { Quantile.percentile(sorted: $0.values.sorted(), 50) }
        }
        guard let goodValue = value(goodTests) else {
            throw OrchestrationError.cannotDo(
                "--series '\(selector)': not counted at \(good)")
        }
        // The comparison's rule: widened when the count moved with the heap (at GOOD or at the step).
        let goodSpread = SeriesTable(goodTests).series[series]?.processSpread ?? 0
        func differs(_ v: Double, _ tests: [TestResult]) -> Bool {
            let spread = max(goodSpread, SeriesTable(tests).series[series]?.processSpread ?? 0)
            return Comparison.countsDiffer(goodValue, v, tolerance: Comparison.countTolerance(spread: spread))
        }
        var steps = [Step(commit: goodCommit, value: goodValue, changed: false, tests: goodTests)]
        let tree = revision.directory
        _ = ChildProcess.output(["git", "-C", tree, "bisect", "reset", "--quiet"])
        guard var said = ChildProcess.output(["git", "-C", tree, "bisect", "start", badCommit, goodCommit, "--"]) else {
            throw OrchestrationError.childFailed("git bisect start \(bad) \(good) failed in \(tree)")
        }
        defer { _ = ChildProcess.output(["git", "-C", tree, "bisect", "reset", "--quiet"]) }
        while !said.contains("is the first bad commit") {
            guard let head = ChildProcess.output(["git", "-C", tree, "rev-parse", "HEAD"]) else {
                throw OrchestrationError.childFailed("git rev-parse failed in \(tree)")
            }
            revision = try Revision.prepare(head, worktree: worktree, progress: progress)
            var verdict = "skip"
            if let built = try? revision.build(progress: progress) {
                bundle = URL(fileURLWithPath: built).path
                let tests = try count(head, bundle: bundle, directory: tree)
                if let v = value(tests) {
                    let changed = differs(v, tests)
                    steps.append(Step(commit: head, value: v, changed: changed, tests: tests))
                    verdict = changed ? "bad" : "good"
                }
            }
            // The worktree's pinned manifest goes back before git moves on.
            _ = ChildProcess.output(["git", "-C", tree, "checkout", "--quiet", "--", "."])
            guard let next = ChildProcess.output(["git", "-C", tree, "bisect", verdict]) else {
                throw OrchestrationError.childFailed("git bisect \(verdict) failed in \(tree)")
            }
            said = next
            if said.contains("only 'skip'ped commits left") {
                throw OrchestrationError.childFailed("git bisect: \(said.split(separator: "\n").first ?? "")")
            }
        }
        let culprit = String(said.split(separator: " ").first ?? "")
        var culpritStep = steps.first { $0.commit == culprit }
        if culpritStep == nil {
            // git names BAD without testing it: count it, to tell a change from no change at all.
            revision = try Revision.prepare(culprit, worktree: worktree, progress: progress)
            let tests = try count(
                culprit, bundle: URL(fileURLWithPath: try revision.build(progress: progress)).path, directory: tree)
            guard let v = value(tests) else {
                throw OrchestrationError.cannotDo(
                    "--series '\(selector)': not counted at \(culprit.prefix(12))")
            }
            culpritStep = Step(commit: culprit, value: v, changed: differs(v, tests), tests: tests)
            steps.append(culpritStep!)
        }
        let parentHash = ChildProcess.output(["git", "rev-parse", "\(culprit)^"]) ?? ""
        let subject = ChildProcess.output(["git", "log", "-1", "--format=%s", culprit]) ?? ""
        guard culpritStep!.changed else {
            return Outcome(series: series, steps: steps, culprit: nil, subject: "", parent: nil, culpritStep: nil)
        }
        return Outcome(
            series: series, steps: steps, culprit: culprit, subject: subject,
            parent: steps.first { $0.commit == parentHash && !$0.changed },
            culpritStep: culpritStep)
    }

    /// Why a series that is not a count cannot be bisected, and what would.
    static func timingRefusal(_ selector: String) -> String {
        "--series '\(selector)' is not a count: bisecting time would need repeated, alternating runs at every step "
            + "(perfkit abba GOOD STEP); bisect the test's instructions series instead"
    }

    /// The count series `selector` names among a test's results.
    static func choose(_ selector: String, in tests: [TestResult]) throws -> SeriesID {
        let all = SeriesTable(tests).series.keys.sorted()
        let counts = all.filter { $0.metric == Metric.instructions.name }
        if let named = all.first(where: { $0.shortDescription == selector || $0.description == selector }) {
            guard named.metric == Metric.instructions.name else {
                throw OrchestrationError.cannotDo(timingRefusal(selector))
            }

            return named
        }
        guard !selector.contains(" ") else {
            throw OrchestrationError.cannotDo(
                "--series '\(selector)': no such series (perfkit history show prints the names)")
        }
        guard counts.count == 1 else {
            throw OrchestrationError.cannotDo(
                "--series '\(selector)': the test has \(counts.count) count series; name one: "
                    + counts.map { "'\($0.shortDescription)'" }.joined(separator: ", "))
        }
        return counts[0]
    }
}
