/// How a budget fared. A struct over an enum adopters cannot name (``StoredCases``), so statuses can be added.
///
/// Stored in files as its identifier (`passed`, `failed`, `notJudged`, `targetMissed`).
public struct BudgetStatus: Hashable, Sendable, StoredCases, CustomStringConvertible {
    /// The cases behind the static members (``StoredCases``).
    @_spi(StoredCases) public enum Value: String, CaseIterable, Sendable {
        case passed, failed, notJudged, targetMissed
    }
    /// The case.
    @_spi(StoredCases) public let value: Value
    /// The value of a case.
    @_spi(StoredCases) public init(_ value: Value) { self.value = value }

    /// Every limit held.
    public static let passed = BudgetStatus(.passed)
    /// A hard limit was exceeded, or the budget could never be judged: the test fails.
    public static let failed = BudgetStatus(.failed)
    /// Not judged here (the reason is in the detail): a warning, never a silent pass.
    public static let notJudged = BudgetStatus(.notJudged)
    /// Only a soft limit (a target) was missed: a warning.
    public static let targetMissed = BudgetStatus(.targetMissed)

    /// What a test records for this status.
    public enum RecordedIssue: Sendable, Equatable {
        /// A failing issue.
        case failure
        /// A warning (the test still passes).
        case warning
    }

    /// The issue a measured test records, or nil for none. One place decides it, so no status is dropped silently.
    public var recordedIssue: RecordedIssue? {
        switch value {
        case .passed: nil
        case .failed: .failure
        case .notJudged, .targetMissed: .warning
        }
    }
    /// Words for reports: `passed`, `failed`, `not judged`, `target missed`.
    public var description: String {
        switch value {
        case .passed: "passed"
        case .failed: "failed"
        case .notJudged: "not judged"
        case .targetMissed: "target missed"
        }
    }
}
