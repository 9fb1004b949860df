import Foundation
import PerfKitCore
import Testing

extension Tag {
    /// Marks measured tests.
    ///
    /// Swift Testing gives custom traits no way to add tags, so measured tests add it themselves
    /// (`.tags(.performance)`); `perfkit run` selects them by name.
    @Tag public static var performance: Tag
}

/// Turns a test (or every test of a suite) into a measured test.
///
/// Under a plain `swift test` it runs in smoke mode: few rounds, deterministic counts and
/// budgets on them still checked. Under `perfkit run` (environment `PERFKIT_MODE=measure`) it
/// runs every round and writes the raw samples to the run's results folder.
public struct PerformanceTrait: TestTrait, SuiteTrait, TestScoping {
    /// The measurement configuration in measure mode.
    public var configuration: RunConfiguration

    /// On a suite, every test in it is measured.
    public var isRecursive: Bool { true }

    /// Runs the test with a measurement context, then judges its budgets and records its results.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard !test.isSuite else { return try await function() }
        let budgets = test.traits.compactMap { $0 as? BudgetTrait }.map(\.budget)
        let function_ = Self.testID(of: test)
        // Each case of a parameterized test is a test of its own: `Suite/f(n:) n = 100`.
        let testCase = TestCaseArguments.read(testCase, function: function_)
        if testCase == nil, Test.Case.current?.isParameterized == true {
            Issue.record(
                Comment(
                    rawValue:
                        "\(function_): PerfKit cannot read this parameterized case's arguments (Swift Testing stores "
                        + "them otherwise); its cases would write one series, so this case is not measured"
                ))
            return try await function()
        }
        try await measureScope(
            testID: testCase?.id ?? function_, suite: Self.suiteName(of: test), budgets: budgets, testCase: testCase,
            performing: function)
    }

    /// Runs the test's function with its context bound, the running marker standing while it runs.
    ///
    /// The results folder names the test while it runs: perfkit names the test a crash, an exit or a hang happened in,
    /// and stops it after its limit (Swift Testing's `.timeLimit`, or perfkit's default).
    private static func run(
        _ function: @Sendable () async throws -> Void, context: PerformanceContext, mode: PerformanceMode
    ) async throws {
        if let directory = mode.resultsDirectory {
            let limit = Test.current?.timeLimit.map {
                Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18
            }
            RunningMarker.begin(testID: context.testID, limit: limit, in: directory)
        }
        do {
            if let executor = PinnedHeap.testExecutor {
                // A counting process: the test from its start on the measured thread and its pinned
                // heap, so what it sets up before `measure` sits where it sat in every other run.
                try await withTaskExecutorPreference(executor) {
                    try await PerformanceContext.$current.withValue(context) {
                        PinnedHeap.startTestCase()
                        try await function()
                    }
                }
            } else {
                try await PerformanceContext.$current.withValue(context) { try await function() }
            }
        } catch {
            // The test ended (by throwing): the process goes on.
            if let directory = mode.resultsDirectory { RunningMarker.end(in: directory) }
            throw error
        }
    }

    /// The scope itself, with the test's identity and budgets given.
    ///
    /// What ``provideScope(for:testCase:performing:)`` does, callable from PerfKit's own tests with budgets that are
    /// not traits of the calling test.
    package func measureScope(
        testID: String, suite: String, budgets: [Budget], testCase: TestCase? = nil,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        if PerformanceContext.current?.testID == testID {
            return try await function()  // a suite-level trait already set the context up
        }
        let mode = PerformanceMode.current
        let context = PerformanceContext(
            testID: testID, configuration: mode.configuration(from: configuration), mode: mode)
        try await Self.run(function, context: context, mode: mode)
        let measurements = context.measurements
        if measurements.isEmpty {
            Issue.record(
                Comment(rawValue: "\(testID) has .performance() but called no measure(…): nothing was measured"))
        }
        if mode.kind == .smoke, !suite.hasSuffix("Benchmarks") {
            // Runs under `swift test`, but `perfkit run` would pass it by: say so where it runs.
            Issue.record(
                Comment(
                    rawValue:
                        "\(testID) is measured under swift test, but perfkit run measures suites whose names end in "
                        + "Benchmarks: rename \(suite.split(separator: ".").last ?? "") or run perfkit run "
                        + "--filter '\(suite.split(separator: ".").last ?? "")/'"
                ), severity: .warning)
        }
        if let note = Self.portableNote(testID: testID, measurements: measurements) {
            Issue.record(Comment(rawValue: note), severity: .warning)
        }
        var outcomes: [BudgetOutcome] = []
        for budget in budgets {
            for judgement in budget.judge(measurements, mode: mode) {
                outcomes.append(judgement.outcome)
                Self.recordIssue(for: judgement, at: budget.sourceLocation)
            }
        }
        let result = TestResult(
            id: context.testID, suite: suite, measurements: measurements, budgets: outcomes, testCase: testCase)
        let summary = ResultText.summary(of: result, mode: mode)
        Attachment.record(summary, named: "perfkit-summary.txt")
        // The figures where a `swift test` user looks: one line on the console. In measure mode the
        // tool prints its own table (perfkit run), and the child's output is not shown.
        if mode.kind == .smoke { print(ResultText.line(of: result, mode: mode)) }
        if let directory = mode.resultsDirectory {
            do { try ResultFragments.write(result, into: directory) } catch {
                Issue.record(Comment(rawValue: "cannot write results: \(error)"))
            }
            RunningMarker.end(in: directory)
        }
    }

    /// On the portable path (not Linux, or the Portable trait): the warning that names what was not measured.
    package static func portableNote(testID: String, measurements: [MeasurementResult]) -> String? {
        guard MeasurementPlatform.isPortable, !measurements.isEmpty else { return nil }
        let missing = Set(measurements.flatMap { $0.unavailable.map(\.metric) }).sorted()
        return "\(testID) ran on PerfKit's portable path: wall time and thread CPU were measured"
            + (missing.isEmpty ? "" : "; not measured: " + missing.joined(separator: ", "))
    }

    /// Records the issue a budget's judgement calls for (``BudgetStatus/recordedIssue``).
    ///
    /// A failure for a failed budget, a warning for one not judged or whose target was missed, none for a pass.
    /// - Parameters:
    ///   - judgement: The judgement.
    ///   - location: Where the budget was declared.
    ///   - record: Records the issue; Swift Testing's `Issue.record` unless a test captures it.
    package static func recordIssue(
        for judgement: Budget.Judgement, at location: SourceLocation,
        record: (Comment, Issue.Severity, SourceLocation) -> Void = {
            Issue.record($0, severity: $1, sourceLocation: $2)
        }
    ) {
        switch judgement.outcome.status.recordedIssue {
        case .failure: record(Comment(rawValue: judgement.message), .error, location)
        case .warning: record(Comment(rawValue: judgement.message), .warning, location)
        case nil: break
        }
    }

    /// `Module.Suite`: the test ID's first component.
    static func suiteName(of test: Test) -> String {
        String(String(describing: test.id).split(separator: "/").first ?? "")
    }

    /// `Module.Suite/test(arguments:)`: stable across edits that move the test in its file.
    static func testID(of test: Test) -> String { suiteName(of: test) + "/" + test.name }
}

extension Trait where Self == PerformanceTrait {
    /// Measures the test: `samples` per arm and phase, after `warmup` unrecorded runs.
    /// - Parameters:
    ///   - samples: Samples per arm and phase in measure mode (smoke mode takes at most 3).
    ///   - warmup: Unrecorded runs before warm and eviction samples.
    ///   - metrics: Built-in metrics to record.
    ///   - phases: Phases to run; `nil` runs every phase the subject supports.
    ///   - exactCountRounds: Rounds of the exact allocation count pass.
    ///   - orderSeed: Seed of the ABBA block phase.
    ///   - kind: The kind recorded for time metrics: `.componentCost` (default), or `.frameInput`
    ///     for a test that stands for an interaction judged against a UI clock.
    /// - Returns: The performance trait.
    public static func performance(
        samples: Int = 30, warmup: Int = 3, metrics: Set<Metric> = Set(Metric.defaultMeasured), phases: [Phase]? = nil,
        exactCountRounds: Int = 3, orderSeed: UInt64? = 0xABBA, kind: MetricKind = .componentCost
    ) -> Self {
        PerformanceTrait(
            configuration: RunConfiguration(
                samples: samples, warmupCalls: warmup, metrics: metrics, phases: phases,
                exactCountRounds: exactCountRounds, orderSeed: orderSeed, timeKind: kind))
    }

    /// The older spelling of ``performance(samples:warmup:metrics:phases:exactCountRounds:orderSeed:kind:)``.
    @available(*, deprecated, renamed: "performance(samples:warmup:metrics:phases:exactCountRounds:orderSeed:kind:)")
    public static func performance(
        iterations: Int, warmup: Int = 3, metrics: Set<Metric> = Set(Metric.defaultMeasured), phases: [Phase]? = nil,
        exactCountRounds: Int = 3, orderSeed: UInt64? = 0xABBA, kind: MetricKind = .componentCost
    ) -> Self {
        performance(
            samples: iterations, warmup: warmup, metrics: metrics, phases: phases, exactCountRounds: exactCountRounds,
            orderSeed: orderSeed, kind: kind)
    }
}
