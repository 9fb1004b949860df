/// A named quantity that PerfKit measures.
///
/// Its unit, which direction is better, which kind of question it answers, and whether it is compared exactly or
/// statistically.
///
/// Two metrics are the same metric when their names are equal; the other fields describe it.
public struct Metric: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The stable name used in run files, baselines and reports (for example `wallClock`).
    public var name: String
    /// The unit every sample of this metric is expressed in.
    public var unit: MetricUnit
    /// Whether smaller or larger values are better.
    public var polarity: Polarity
    /// Which kind of measurement this is; reports never merge kinds.
    public var kind: MetricKind
    /// Deterministic metrics are compared exactly against absolute thresholds; statistical ones
    /// by distribution with a two-gate verdict.
    public var isDeterministic: Bool
    /// Whose activity the metric sees: the measuring thread, the whole process, or the subject.
    public var scope: MetricScope

    /// Creates a metric description.
    /// - Parameters:
    ///   - name: Stable name, unique within a run.
    ///   - unit: Unit of every sample.
    ///   - polarity: Which direction is better.
    ///   - kind: Measurement kind.
    ///   - isDeterministic: `true` when repeated runs of the same code give the same value.
    ///   - scope: Whose activity the metric sees.
    public init(
        _ name: String, unit: MetricUnit, polarity: Polarity = .smallerIsBetter,
        kind: MetricKind = .componentCost, isDeterministic: Bool = false, scope: MetricScope = .subject
    ) {
        self.name = name
        self.unit = unit
        self.polarity = polarity
        self.kind = kind
        self.isDeterministic = isDeterministic
        self.scope = scope
    }

    /// The metric's name.
    public var description: String { name }

    private enum CodingKeys: String, CodingKey { case name, unit, polarity, kind, isDeterministic, scope }

    /// Reads a stored metric.
    ///
    /// Before schema 4, `instructions` was the hardware counter (unit `count`); such a metric is read as
    /// ``retiredInstructions``, so it is never compared with simulated counts.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        unit = try container.decode(MetricUnit.self, forKey: .unit)
        polarity = try container.decode(Polarity.self, forKey: .polarity)
        kind = try container.decode(MetricKind.self, forKey: .kind)
        isDeterministic = try container.decode(Bool.self, forKey: .isDeterministic)
        scope = try container.decode(MetricScope.self, forKey: .scope)
        if name == "instructions" && unit == .count { name = "retiredInstructions" }
        // Stored as smallerIsBetter before: fewer frees, bytes freed or releases can mean memory kept.
        if ["bytesFreed", "frees", "releases"].contains(name) { polarity = .neither }
    }

    /// Whether the metric is counted under simulation (valgrind), not measured on the hardware.
    ///
    /// Reports mark it so, and it is compared by a count tolerance, not by noise statistics.
    public var isSimulated: Bool { unit == .instructions }

    /// Whether the metric comes from a counting run (callgrind): instructions, and the retain and release calls read
    /// from the same dumps.
    ///
    /// A native run never records these.
    public var isCounted: Bool { isSimulated || self == .retains || self == .releases || self == .objectAllocations }

    /// Metrics are the same when their names are: the name is the identity stored in files.
    public static func == (lhs: Metric, rhs: Metric) -> Bool { lhs.name == rhs.name }
    /// Hashes the name, the metric's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

/// Which direction of change is an improvement.
public enum Polarity: String, Sendable, Codable, Hashable {
    case smallerIsBetter
    case largerIsBetter
    /// Neither direction is better (for example bytes freed): the metric is shown, never judged.
    case neither
}

/// Whose activity a metric observes.
public enum MetricScope: String, Sendable, Codable, Hashable {
    /// Only the thread that runs the measured body (exact even while other threads work).
    case thread
    /// The whole process: other threads, including parallel tests, are counted too.
    case process
    /// A counter the subject itself records.
    case subject
}

/// The unit of a metric. A struct so new units can be added without breaking callers.
public struct MetricUnit: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The unit's symbol as stored in files (for example `ns`, `B`, `count`).
    public var symbol: String
    /// Creates a unit from its stored symbol.
    public init(_ symbol: String) { self.symbol = symbol }
    /// Reads the unit's symbol.
    public init(from decoder: any Decoder) throws { symbol = try decoder.singleValueContainer().decode(String.self) }
    /// Writes the unit's symbol.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(symbol)
    }
    /// The unit's symbol (`ns`, `B`, `count`).
    public var description: String { symbol }

    /// Time, in nanoseconds.
    public static let nanoseconds = MetricUnit("ns")
    /// Memory, in bytes.
    public static let bytes = MetricUnit("B")
    /// A count of events or objects.
    public static let count = MetricUnit("count")
    /// Simulated instructions (callgrind's `Ir`).
    public static let instructions = MetricUnit("instructions")
}

/// The kind of question a metric answers. Reports keep kinds in separate sections.
public struct MetricKind: Hashable, Sendable, StoredCases, Comparable, CustomStringConvertible {
    /// The cases behind the static members (``StoredCases``).
    @_spi(StoredCases) public enum Value: String, CaseIterable, Sendable {
        case componentCost, memory, referenceCounting, leaks, correctness, frameInput
    }
    /// The case.
    @_spi(StoredCases) public let value: Value
    /// The value of a case.
    @_spi(StoredCases) public init(_ value: Value) { self.value = value }

    /// Host-side cost of a component: time, CPU, allocations, instructions, component counters.
    public static let componentCost = MetricKind(.componentCost)
    /// Memory held: resident set, allocator totals, bytes owned.
    public static let memory = MetricKind(.memory)
    /// Retain and release calls per call of the body (counted under callgrind).
    public static let referenceCounting = MetricKind(.referenceCounting)
    /// What a call leaves behind: allocations not freed and descriptors not closed by its end.
    public static let leaks = MetricKind(.leaks)
    /// Functional correctness counters (for example unrelated recomputations, lost edits).
    public static let correctness = MetricKind(.correctness)
    /// Frame work and input handling, judged against UI deadlines.
    public static let frameInput = MetricKind(.frameInput)
    /// Every kind, in report order.
    public static let allKinds: [MetricKind] = Value.allCases.map(MetricKind.init)
    /// A heading for reports.
    public var title: String {
        switch value {
        case .componentCost: "Component cost"
        case .memory: "Memory"
        case .referenceCounting: "Reference counting"
        case .leaks: "Leaks"
        case .correctness: "Correctness"
        case .frameInput: "Frame and input"
        }
    }
    /// The stored identifier.
    public var description: String { identifier }

    /// Report order: component cost, memory, reference counting, leaks, correctness, frame and input.
    public static func < (lhs: MetricKind, rhs: MetricKind) -> Bool {
        Value.allCases.firstIndex(of: lhs.value)! < Value.allCases.firstIndex(of: rhs.value)!
    }
}
