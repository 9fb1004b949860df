/// How a budget fared. A struct wrapping a private enum so statuses can be added.
///
/// Stored in files as its identifier (`passed`, `failed`, `notJudged`, `targetMissed`).
public struct BudgetStatus: Hashable, Sendable, StoredIdentifier, CustomStringConvertible {
    private enum Value: String, CaseIterable { case passed, failed, notJudged, targetMissed }
    private let value: Value
    private init(_ value: Value) { self.value = value }

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

    /// The stored identifier.
    public var identifier: String { value.rawValue }
    /// Parses a stored identifier.
    public init?(identifier: String) {
        guard let value = Value(rawValue: identifier) else { return nil }
        self.value = value
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
