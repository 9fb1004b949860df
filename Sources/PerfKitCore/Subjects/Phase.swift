/// Which question a sample answers about a subject's state.
///
/// A struct wrapping a private enum so phases can be added without breaking callers.
public struct Phase: Hashable, Sendable, StoredIdentifier, Comparable, CustomStringConvertible {
    private enum Value: String, CaseIterable { case cold, warm, eviction }
    private let value: Value
    private init(_ value: Value) { self.value = value }

    /// The first run on fresh state: caches empty, nothing prepared.
    public static let cold = Phase(.cold)
    /// Steady state after warm-up runs on the same state.
    public static let warm = Phase(.warm)
    /// A run after the subject has been pushed out of its cache or working set.
    public static let eviction = Phase(.eviction)
    /// Every phase, in report order.
    public static let allPhases: [Phase] = Value.allCases.map(Phase.init)

    /// The stored identifier (`cold`, `warm`, `eviction`).
    public var identifier: String { value.rawValue }
    /// The stored identifier (`cold`, `warm`, `eviction`).
    public var description: String { value.rawValue }

    /// Parses a stored identifier.
    /// - Parameter identifier: `cold`, `warm` or `eviction`.
    public init?(identifier: String) {
        guard let value = Value(rawValue: identifier) else { return nil }
        self.value = value
    }
    /// Report order: cold, warm, eviction.
    public static func < (lhs: Phase, rhs: Phase) -> Bool {
        Value.allCases.firstIndex(of: lhs.value)! < Value.allCases.firstIndex(of: rhs.value)!
    }
}
