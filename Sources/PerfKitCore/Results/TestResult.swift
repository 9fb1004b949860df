import Foundation

/// One measured test: its identity, measurements and the outcome of its budgets.
public struct TestResult: Sendable, Codable, Equatable {
    /// A stable identifier, `Suite/test()`.
    ///
    /// For one case of a parameterized test, the function's ID and its arguments as Swift Testing describes them,
    /// `Suite/sort(n:) n = 100`.
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

/// One case of a parameterized test (`@Test(arguments: …)`).
///
/// The test function and the case's arguments, typed, so that cases are told apart without parsing their names.
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
