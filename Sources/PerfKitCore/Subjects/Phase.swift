/// Which question a sample answers about a subject's state.
///
/// A struct over an enum adopters cannot name (``StoredCases``), so phases can be added without breaking callers.
public struct Phase: Hashable, Sendable, StoredCases, Comparable, CustomStringConvertible {
    /// The cases behind the static members (``StoredCases``).
    @_spi(StoredCases) public enum Value: String, CaseIterable, Sendable { case cold, warm, eviction }
    /// The case.
    @_spi(StoredCases) public let value: Value
    /// The value of a case.
    @_spi(StoredCases) public init(_ value: Value) { self.value = value }

    /// The first run on fresh state: caches empty, nothing prepared.
    public static let cold = Phase(.cold)
    /// Steady state after warm-up runs on the same state.
    public static let warm = Phase(.warm)
    /// A run after the subject has been pushed out of its cache or working set.
    public static let eviction = Phase(.eviction)
    /// Every phase, in report order.
    public static let allPhases: [Phase] = Value.allCases.map(Phase.init)

    /// The stored identifier (`cold`, `warm`, `eviction`).
    public var description: String { value.rawValue }

    /// Report order: cold, warm, eviction.
    public static func < (lhs: Phase, rhs: Phase) -> Bool {
        Value.allCases.firstIndex(of: lhs.value)! < Value.allCases.firstIndex(of: rhs.value)!
    }
}
