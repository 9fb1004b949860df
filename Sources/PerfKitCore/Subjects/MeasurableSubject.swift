/// A piece of work PerfKit can measure in cold, warm and eviction phases.
///
/// Every conformer guarantees:
/// - ``makeState()`` returns fresh state, as a first use would see it (caches empty);
/// - ``run(_:)`` does the measured work once and returns a value that depends on it, so the
///   optimizer cannot delete the work; it runs on the calling thread;
/// - ``evict(_:)`` pushes the subject out of its cache or working set without rebuilding state;
/// - ``warmUp(_:)`` (optional) reaches steady state beyond the runner's warm-up calls;
/// - when ``allowsBatching`` is true (the default), consecutive runs on warm state may be timed
///   together, several calls per sample (``Batching``); a subject whose run cannot simply repeat
///   (it consumes its state) says false and is timed one call per sample;
/// - ``counters(_:)`` reports the subject's own counters, read outside the timed region: levels
///   after the run (live views, bytes owned) as they are, and running totals since
///   ``makeState()`` (cells created, images prepared) marked ``CounterReading/Accumulation/runningTotal``,
///   so the runner records what one run added (after − before), never the running total.
public protocol MeasurableSubject<Output>: Sendable {
    /// The state one arm keeps between runs.
    associatedtype State
    /// What one run returns.
    associatedtype Output

    /// The phases this subject supports; the runner skips the others.
    var phases: [Phase] { get }
    /// Fresh state.
    /// - Throws: When the state cannot be built.
    func makeState() throws -> State
    /// One run of the measured work.
    /// - Throws: When the work fails; the measurement stops and reports it.
    func run(_ state: inout State) throws -> Output
    /// Pushes the subject out of its cache or working set.
    /// - Throws: When eviction fails.
    func evict(_ state: inout State) throws
    /// Brings state to steady state before warm and eviction samples.
    ///
    /// It runs after the runner's warm-up calls (for example, one pass over everything a run can touch).
    /// - Throws: When warm-up fails.
    func warmUp(_ state: inout State) throws
    /// The subject's own counters after a run.
    func counters(_ state: State) -> [CounterReading]
    /// Whether warm runs may be timed several calls per sample (see ``Batching``); true by default.
    var allowsBatching: Bool { get }
}

extension MeasurableSubject {
    /// Warm only, unless the subject says otherwise.
    public var phases: [Phase] { [.warm] }
    /// Nothing to evict, unless the subject says otherwise.
    public func evict(_ state: inout State) throws {}
    /// No warm-up beyond the runner's warm-up calls, unless the subject says otherwise.
    public func warmUp(_ state: inout State) throws {}
    /// No counters of its own, unless the subject reports some.
    public func counters(_ state: State) -> [CounterReading] { [] }
    /// Runs may be batched, unless the subject says otherwise.
    public var allowsBatching: Bool { true }
}

/// One value of a subject's own counter.
public struct CounterReading: Sendable, Equatable {
    /// How a counter's value relates to runs.
    public enum Accumulation: Sendable, Equatable {
        /// A level after the run (live views, bytes owned): recorded as read.
        case level
        /// A running total since fresh state (cells created): the runner records after − before.
        case runningTotal
    }
    /// The counter's metric (unit, polarity, kind, determinism).
    public var metric: Metric
    /// Its value after the run.
    public var value: Double
    /// Whether the value is a level or a running total.
    public var accumulation: Accumulation
    /// Creates a reading.
    /// - Parameters:
    ///   - metric: The counter's metric.
    ///   - value: Its value after the run.
    ///   - accumulation: `.level` (recorded as read) or `.runningTotal` (recorded per run).
    public init(_ metric: Metric, _ value: Double, accumulation: Accumulation = .level) {
        self.metric = metric
        self.value = value
        self.accumulation = accumulation
    }
}

/// A named arm of a comparison: one subject, for example one policy of a renderer.
public struct Arm: Sendable {
    /// The arm's name as it appears in results (for example `reference`, `native`).
    public var name: String
    /// The subject this arm measures.
    public var subject: any MeasurableSubject
    /// Creates an arm.
    public init(_ name: String, _ subject: any MeasurableSubject) {
        self.name = name
        self.subject = subject
    }
}

/// A subject made of closures, for measuring a plain block of code.
public struct ClosureSubject<Output>: MeasurableSubject, @unchecked Sendable {
    // The closure is only called on the thread that runs the measurement.
    private let body: () throws -> Output
    /// Wraps `body`; its only phase is warm.
    public init(_ body: @escaping () throws -> Output) { self.body = body }
    /// No state.
    public func makeState() throws {}
    /// Calls the closure once.
    public func run(_ state: inout Void) throws -> Output { try body() }
}
