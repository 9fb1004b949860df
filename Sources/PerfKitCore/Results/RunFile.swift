import Foundation

/// The results of one run of measured tests: environment plus every raw sample.
///
/// Stored as versioned JSON (`Documentation/RunFileSchema.md`); the schema version is read first.
public struct RunFile: Sendable, Codable, Equatable {
    /// The schema version this code writes. Version 2 added process labels to series
    /// (`processes`); version 3 added calls per sample (`callsPerSample`, batched fast bodies).
    /// Version 4 added simulated counts (`instructions` in unit `instructions`, with
    /// `callgrindDumps` and `profile` per series), `valgrind` and `valgrindCPU` in the environment
    /// and `countsOnly`; a version-3 series named `instructions` (hardware, unit `count`) is read as
    /// `retiredInstructions`.
    /// Version 5 added `threadsStarted` per count series and `countingSetup` in the environment.
    /// Version 6 added `testCase` to tests: each case of a parameterized test is a test of its own,
    /// `Suite/f(n:) n = 100`, with its function's ID and its arguments typed.
    /// Versions 1 to 5 are still read (version 1 and 2 series come from one process, one call a
    /// sample; before 6, a parameterized test's cases shared one ID and one case's samples were kept).
    public static let currentSchemaVersion = 6

    /// The file's schema version.
    public var schemaVersion: Int
    /// When the run started (ISO 8601).
    public var date: Date
    /// `measure` (every sample, release) or `smoke` (few samples).
    public var mode: String
    /// Where and how the run was made.
    public var environment: Environment
    /// Every measured test, sorted by id.
    public var tests: [TestResult]
    /// The test filter when the run measured a subset (`perfkit run --filter`); nil for a full run.
    /// A comparison then says "not measured in this run" for the baseline's other tests, not "removed".
    public var filter: String? = nil
    /// Whether the run took simulated counts only (`perfkit run --counts-only`): a comparison then
    /// says "not measured" for the baseline's timing series, not "removed".
    public var countsOnly: Bool? = nil
    /// For one shard of a suite (`perfkit run --shard I/N`): `I/N`; nil for a whole run or a merge
    /// of shards (`perfkit merge`). A comparison then says "not measured" for the other shards' tests.
    public var shard: String? = nil

    /// Creates a run file.
    public init(date: Date, mode: String, environment: Environment, tests: [TestResult]) {
        schemaVersion = Self.currentSchemaVersion
        self.date = date
        self.mode = mode
        self.environment = environment
        self.tests = tests.sorted { $0.id < $1.id }
    }
}

/// One measured test: its identity, measurements and the outcome of its budgets.
public struct TestResult: Sendable, Codable, Equatable {
    /// A stable identifier, `Suite/test()`; for one case of a parameterized test, the function's
    /// ID and its arguments as Swift Testing describes them, `Suite/sort(n:) n = 100`.
    public var id: String
    /// For one case of a parameterized test: the function and the case's arguments; nil otherwise.
    public var testCase: TestCase? = nil
    /// The suite's name, used to group baselines into files.
    public var suite: String
    /// The measured regions of the test.
    public var measurements: [MeasurementResult]
    /// Budget outcomes recorded for the test.
    public var budgets: [BudgetOutcome]

    /// The test function's ID: ``id`` without a case's arguments.
    public var functionID: String { testCase?.function ?? id }

    /// Creates a test result.
    public init(
        id: String, suite: String, measurements: [MeasurementResult], budgets: [BudgetOutcome] = [],
        testCase: TestCase? = nil
    ) {
        self.id = id
        self.testCase = testCase
        self.suite = suite
        self.measurements = measurements
        self.budgets = budgets
    }
}

/// How a budget fared for one measurement.
public struct BudgetOutcome: Sendable, Codable, Equatable {
    /// The measurement and arm the budget applied to.
    public var measurement: String
    /// The arm the budget applied to.
    public var arm: String
    /// The phase the budget applied to.
    public var phase: Phase
    /// The metric judged.
    public var metric: String
    /// A plain description of the budget (for example `p95 ≤ 10 ms, max ≤ 20 ms`).
    public var budget: String
    /// Passed, failed, not judged or target missed.
    public var status: BudgetStatus
    /// Why: the observed values, or why it was not judged.
    public var detail: String

    /// Creates an outcome.
    public init(
        measurement: String, arm: String, phase: Phase, metric: String, budget: String, status: BudgetStatus,
        detail: String
    ) {
        self.measurement = measurement
        self.arm = arm
        self.phase = phase
        self.metric = metric
        self.budget = budget
        self.status = status
        self.detail = detail
    }
}

/// One case of a parameterized test (`@Test(arguments: …)`): the test function and the case's
/// arguments, typed, so that cases are told apart without parsing their names.
public struct TestCase: Sendable, Codable, Equatable, Hashable {
    /// One argument of the case.
    public struct Argument: Sendable, Codable, Equatable, Hashable {
        /// The parameter's name (`n`).
        public var name: String
        /// The value as Swift Testing describes it (`100`, `"a b"`).
        public var value: String
        /// The value as a number when it is an integer or floating-point argument: a size that
        /// cost can be fitted against.
        public var number: Double?

        /// An argument.
        public init(name: String, value: String, number: Double? = nil) {
            self.name = name
            self.value = value
            self.number = number
        }
    }

    /// The test function's ID, `Suite/sort(n:)`.
    public var function: String
    /// The case's arguments, in the parameters' order.
    public var arguments: [Argument]

    /// A case.
    public init(function: String, arguments: [Argument]) {
        self.function = function
        self.arguments = arguments
    }

    /// `n = 100`, or `s = "a b", k = 1`: what follows the function's ID in the case's test ID.
    public var label: String { arguments.map { "\($0.name) = \($0.value)" }.joined(separator: ", ") }

    /// The case's test ID: `Suite/sort(n:) n = 100`.
    public var id: String { function + " " + label }

    /// The size cost grows with: the case's one numeric argument (nil when it has none, or more
    /// than one and none is named `n`, `size` or `count`).
    public var size: Double? {
        let numeric = arguments.filter { $0.number != nil }
        if numeric.count == 1 { return numeric[0].number }
        return numeric.first { ["n", "size", "count"].contains($0.name) }?.number
    }
}
