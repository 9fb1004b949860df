import Foundation
import PerfKitCore

/// `perfkit bisect GOOD BAD --series NAME`.
///
/// The first commit at which a simulated count series changed, found by driving `git bisect` in a worktree of its own
/// with a counting run of the one test at each step (the user's working tree and its bisect state are never touched).
///
/// Counts do not drift with the machine's load, so each step is decided by one counting run: its median per
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
        /// GOOD's step only: the median of the series' samples in its first process.
        ///
        /// It is nil for a later step, and when
        /// the series does not say which process took each sample.
        package var firstProcessValue: Double?
        /// Whether the step was judged from its first process alone.
        ///
        /// It counted the series as GOOD's first process did in every sample, so it had no further process and its
        /// ``value`` is over that process only.
        package var identicalToGoodFirst = false

        /// A counted step.
        package init(
            commit: String, value: Double, changed: Bool, tests: [TestResult], firstProcessValue: Double? = nil,
            identicalToGoodFirst: Bool = false
        ) {
            self.commit = commit
            self.value = value
            self.changed = changed
            self.tests = tests
            self.firstProcessValue = firstProcessValue
            self.identicalToGoodFirst = identicalToGoodFirst
        }

        /// The summary's line for the step; `good` is GOOD's step.
        ///
        /// A step judged from its first process says so, and GOOD's line then gives its own first process's median too:
        /// the two values are over different processes.
        package func summaryLine(good: Step, unit: MetricUnit) -> String {
            var line = "counted \(commit.prefix(12)): \(Format.value(value, unit))"
            if changed { line += " (changed)" }
            if identicalToGoodFirst {
                line += " (its first process only: identical to GOOD's first process in every sample)"
            } else if commit == good.commit, let first = firstProcessValue, first != value {
                line += " (GOOD; its first process \(Format.value(first, unit)))"
            }
            return line
        }
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
    ///     test has one count series, else the name `history show` prints (`Suite/test() measurement [arm, phase]
    ///     instructions`).
    ///   - countSamples: Samples per arm and phase in each counting process (default: the test's own, at most 2).
    ///   - buildSystem: The build system each step builds with (nil: SwiftPM's default).
    ///   - progress: Receives one line per step.
    /// - Returns: The outcome.
    /// - Throws: ``OrchestrationError``: unknown revisions, GOOD not an ancestor, no such series, a timing series, a
    ///   failed build or count.
    package static func run(
        good: String, bad: String, selector: String, countSamples: Int? = nil, buildSystem: BuildSystem? = nil,
        progress: (String) -> Void = { _ in }
    ) throws -> Outcome {
        try withoutActuallyEscaping(progress) { progress in
            try bisect(
                good: good, bad: bad, selector: selector, countSamples: countSamples, buildSystem: buildSystem,
                progress: progress)
        }
    }

    private static func bisect(
        good: String, bad: String, selector: String, countSamples: Int?, buildSystem: BuildSystem?,
        progress: @escaping (String) -> Void
    ) throws -> Outcome {
        // A named series whose metric is not a count is refused before anything is built.
        if selector.contains(" ["), let metric = selector.split(separator: " ").last,
            metric != Substring(Metric.instructions.name)
        {
            throw OrchestrationError.cannotDo(timingRefusal(selector))
        }
        // No readable last run: the series is checked at GOOD instead, after its build.
        if let last = try? RunFile.read(from: RunFile.latestPath) { try refuseEarly(selector, lastRun: last.tests) }
        let goodCommit = try Revision.resolve(good), badCommit = try Revision.resolve(bad)
        guard goodCommit != badCommit else {
            throw OrchestrationError.cannotDo(
                "\(good) and \(bad) are one commit (\(goodCommit.prefix(12))): nothing to bisect; give GOOD before BAD")
        }
        guard Git.answer(["merge-base", "--is-ancestor", goodCommit, badCommit]) != nil else {
            throw OrchestrationError.cannotDo(
                "\(good) is not an ancestor of \(bad): bisect needs GOOD before BAD on one history")
        }
        let setup = try CountingRun.prepare(directory: ".", progress: progress)
        var counter = try StepCounter(
            good: goodCommit, goodName: good, selector: selector, countSamples: countSamples, buildSystem: buildSystem,
            setup: setup,
            progress: progress)
        let tree = counter.tree
        _ = Git.answer(["-C", tree, "bisect", "reset"])
        var said = try gitBisect(["start", badCommit, goodCommit, "--"], in: tree)
        defer { _ = Git.answer(["-C", tree, "bisect", "reset"]) }
        while !said.contains("is the first bad commit") {
            let head = try gitBisect(nil, in: tree)
            let verdict = try counter.judge(head)
            // The worktree's pinned manifests go back before git moves on.
            _ = Git.answer(["-C", tree, "checkout", "--quiet", "--", "."])
            said = try gitBisect([verdict], in: tree)
            if said.contains("only 'skip'ped commits left") {
                throw OrchestrationError.cannotDo("git bisect: \(said.split(separator: "\n").first ?? "")")
            }
        }
        let culprit = String(said.split(separator: " ").first ?? "")
        let culpritStep = try counter.step(at: culprit)
        let parentHash = parentCommit(of: culprit) ?? ""
        let subject = Git.answer(["log", "-1", "--format=%s", "--end-of-options", culprit]) ?? ""
        guard culpritStep.changed else {
            return Outcome(
                series: counter.series, steps: counter.steps, culprit: nil, subject: "", parent: nil, culpritStep: nil)
        }
        return Outcome(
            series: counter.series, steps: counter.steps, culprit: culprit, subject: subject,
            parent: counter.steps.first { $0.commit == parentHash && !$0.changed },
            culpritStep: culpritStep)
    }

    /// The full hash of `commit`'s first parent, or nil for a root commit.
    ///
    /// (`git rev-parse --end-of-options C^` without `--verify` printed the option back on a line of its own, so the
    /// culprit's counted parent was never found and "where it went" never shown.)
    package static func parentCommit(of commit: String, in directory: String? = nil) -> String? {
        // A root commit has no parent: nothing to count before it.
        try? Git.commit("\(commit)^", in: directory)
    }

    /// `git bisect ARGUMENTS` in `tree` (or, with nil, the commit bisect checked out), git's words quoted on failure.
    static func gitBisect(_ arguments: [String]?, in tree: String) throws -> String {
        do {
            guard let arguments else { return try Git.run(["-C", tree, "rev-parse", "HEAD"]) }
            return try Git.run(["-C", tree, "bisect"] + arguments)
        } catch { throw OrchestrationError.git(error) }
    }

    /// Why a series that is not a count cannot be bisected, and what would.
    static func timingRefusal(_ selector: String) -> String {
        "--series '\(selector)' is not a count: bisecting time would need repeated, alternating runs at every step "
            + "(perfkit abba GOOD STEP); bisect the test's instructions series instead"
    }

    /// Refuses, before anything is built, a bare test name that the last run counted in several series.
    ///
    /// Refuses, before anything is built, a bare test name (`Suite/test()`) that the last run counted
    /// in more than one series (a parameterized test's cases, several measurements), naming them: on
    /// swift-argument-parser the refusal came only after GOOD's release build and counting run, 332 s.
    /// A selector the last run does not know is left to the counting run of GOOD.
    /// - Parameters:
    ///   - selector: `--series`.
    ///   - tests: The last run's results (`.perfkit/runs/latest.json`).
    /// - Throws: ``OrchestrationError/cannotDo(_:)`` naming the series to choose from.
    package static func refuseEarly(_ selector: String, lastRun tests: [TestResult]) throws {
        guard !selector.contains(" ") else { return }
        let named = tests.filter { test in
            let function = test.testCase?.function ?? test.id
            return function == selector || SeriesID.shortTest(function) == selector
                || function.hasSuffix("." + selector)
        }
        let counts = SeriesTable(named).series.keys.filter { $0.metric == Metric.instructions.name }
        if counts.count > 1 { _ = try choose(selector, in: named) }
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
