/// Every raw sample of one metric for one arm in one phase, with the labels that let order effects be analysed later.
///
/// The round, the position within the round and the sample's index.
public struct SampleSeries: Sendable, Codable, Equatable {
    /// The metric the values are samples of.
    public var metric: Metric
    /// The arm that produced them.
    public var arm: String
    /// The phase they belong to.
    public var phase: Phase
    /// The raw values, in the metric's unit, in the order they were taken.
    public var values: [Double] = []
    /// The round of each value.
    public var rounds: [Int] = []
    /// The arm's position within its round (0 = ran first).
    public var positions: [Int] = []
    /// Each value's index among its arm and phase's samples in its process (0, 1, 2, …).
    public var sampleIndices: [Int] = []
    /// The fresh process each value came from (`perfkit run --processes N` runs the tests in N
    /// processes); nil for a series measured in one process.
    public var processes: [Int]? = nil
    /// Calls of the body each value was timed over (the runner batches fast warm bodies so a sample lasts at least
    /// ``Batching/targetSampleNanoseconds``).
    ///
    /// Nil when every value is one call. Values are always per call: additive metrics of a batched sample are divided
    /// by it.
    public var callsPerSample: [Int]? = nil
    /// For simulated counts.
    ///
    /// The number N of each value's callgrind dump (`callgrind.out.N` in the folder beside the run file), so "where it
    /// went" can be read per series; nil otherwise.
    public var callgrindDumps: [Int]? = nil
    /// For simulated counts: where the series' instructions went, per function (from its dumps).
    public var profile: CountProfile? = nil
    /// For simulated counts.
    ///
    /// The threads the body started while each value was counted (their instructions are in the value); nil when no
    /// value's body started one. Such a body is counted in an order valgrind's scheduler picks, which can vary between
    /// runs.
    public var threadsStarted: [Int]? = nil
    /// For simulated counts.
    ///
    /// Why the counting process could not pin the measured thread's heap (``PinnedHeap``: jemalloc not the allocator,
    /// the fixed range not reserved or run out); nil when it was pinned. Such a series' addresses move between runs, as
    /// before the pinned heap, and the counting run shifts its heap in a second process to measure how far it moves.
    public var heapUnpinned: String? = nil

    /// Creates an empty series.
    public init(metric: Metric, arm: String, phase: Phase) {
        self.metric = metric
        self.arm = arm
        self.phase = phase
    }

    /// Appends one labelled value.
    /// - Parameters:
    ///   - value: The value, per call.
    ///   - round: Its round of the timed pass.
    ///   - position: The arm's position within the round.
    ///   - index: The sample's index among its arm and phase's samples.
    ///   - calls: Calls of the body the value was timed over (1 unless batched).
    public mutating func append(_ value: Double, round: Int, position: Int, index: Int, calls: Int = 1) {
        if calls != 1 || callsPerSample != nil {
            if callsPerSample == nil { callsPerSample = Array(repeating: 1, count: values.count) }
            callsPerSample!.append(calls)
        }
        values.append(value)
        rounds.append(round)
        positions.append(position)
        sampleIndices.append(index)
    }

    /// The older spelling of ``append(_:round:position:index:calls:)``.
    @available(*, deprecated, renamed: "append(_:round:position:index:calls:)")
    public mutating func append(_ value: Double, round: Int, position: Int, iteration: Int, calls: Int = 1) {
        append(value, round: round, position: position, index: iteration, calls: calls)
    }

    /// The older name of ``sampleIndices``.
    @available(*, deprecated, renamed: "sampleIndices")
    public var iterations: [Int] {
        get { sampleIndices }
        set { sampleIndices = newValue }
    }

    /// The stored keys: `sampleIndices` keeps its older name's key, `iterations`, so every run
    /// file and baseline reads and writes as before.
    private enum CodingKeys: String, CodingKey {
        case metric, arm, phase, values, rounds, positions, processes, callsPerSample, callgrindDumps, profile
        case threadsStarted, heapUnpinned
        case sampleIndices = "iterations"
    }

    /// The fewest calls any value was timed over (1 when not batched).
    ///
    /// What a resolution gate multiplies a per-call median by to get the shortest sample's duration.
    public var minimumCallsPerSample: Int { callsPerSample?.min() ?? 1 }
}

/// A metric the runner could not measure, and why.
public struct UnavailableMetric: Sendable, Codable, Equatable {
    /// The metric's name.
    public var metric: String
    /// Why it is unavailable (for example "no PMU").
    public var reason: String
    /// Creates a record.
    public init(metric: String, reason: String) {
        self.metric = metric
        self.reason = reason
    }
}

/// Where allocations a call kept were made: a function and how many blocks a call left live from it.
public struct LeakSite: Sendable, Codable, Equatable {
    /// The allocating function, demangled, with its caller when known (`A.init() ← f()`).
    public var function: String
    /// Blocks per call still live at the end of the call and its settle wait.
    public var perCall: Double
    /// The arm whose call kept them, when the measurement has more than one.
    public var arm: String? = nil
    /// The phase whose call kept them (a synchronous body's; an async body's are its warm calls).
    public var phase: Phase? = nil

    /// A site.
    public init(function: String, perCall: Double, arm: String? = nil, phase: Phase? = nil) {
        self.function = function
        self.perCall = perCall
        self.arm = arm
        self.phase = phase
    }

    /// Whether the site was found for `series` (a site without an arm or phase is any series').
    public func belongs(to series: SampleSeries) -> Bool {
        (arm ?? series.arm) == series.arm && (phase ?? series.phase) == series.phase
    }
}

/// The raw outcome of one measured region: its arms, the order they ran in and every sample.
public struct MeasurementResult: Sendable, Codable, Equatable {
    /// The measurement's name within its test (for example `layout`).
    public var name: String
    /// The arms, in declaration order (a plain measurement has one arm, `main`).
    public var arms: [String]
    /// Arm indices per round of the timed pass.
    public var order: [[Int]]
    /// Every series, one per metric, arm and phase.
    public var series: [SampleSeries]
    /// Metrics that were asked for but could not be measured.
    public var unavailable: [UnavailableMetric]
    /// Where the allocations counted as leaked were made, most first; nil when not known.
    ///
    /// An async body's from its exact-count pass, a synchronous body's from one more call of each leaking arm and
    /// phase; both need jemalloc's allocation hooks, installed only in a `perfkit run` process.
    public var leakSites: [LeakSite]? = nil
    /// What the measurement fell back on, per pass and sample (``Fallback``); nil when nothing.
    public var fallbacks: [Fallback]? = nil

    /// Creates a result.
    public init(name: String, arms: [String], order: [[Int]], series: [SampleSeries], unavailable: [UnavailableMetric])
    {
        self.name = name
        self.arms = arms
        self.order = order
        self.series = series
        self.unavailable = unavailable
    }

    /// The series of `metric` for `arm` in `phase`, if measured.
    public func series(_ metric: Metric, arm: String, phase: Phase) -> SampleSeries? {
        series.first { $0.metric == metric && $0.arm == arm && $0.phase == phase }
    }

    /// The phases present, in report order.
    public var phases: [Phase] { Array(Set(series.map(\.phase))).sorted() }
}
