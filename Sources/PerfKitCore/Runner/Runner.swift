/// How a ``Runner`` measures: samples, warm-up, metrics, phases and run order.
public struct RunConfiguration: Sendable, Equatable {
    /// Timed samples per arm and phase (one per round); with several arms, rounded up to whole ABBA blocks.
    public var samples: Int
    /// Unrecorded calls of the body before the first warm or eviction sample.
    public var warmupCalls: Int
    /// Built-in metrics to record; subjects' own counters are always recorded.
    public var metrics: Set<Metric>
    /// Phases to run; `nil` runs every phase the subjects support.
    public var phases: [Phase]?
    /// Rounds of the separate exact-count pass (0 skips it).
    public var exactCountRounds: Int
    /// Rounds of the untimed pass that reads subject counters of arms whose timed samples may be batched.
    ///
    /// Rounds of the untimed pass that reads the subject counters of arms whose timed samples may be
    /// batched (one call a sample; 0 leaves those counters unread). Independent of
    /// ``exactCountRounds``: a process that leaves exact counts to another still reads its counters.
    public var counterRounds: Int = 3
    /// Seed of the ABBA block phase; `nil` keeps blocks in canonical order.
    public var orderSeed: UInt64?
    /// The kind recorded for time metrics (wall clock, CPU).
    ///
    /// Component cost by default, or frame and input for a test that stands for an interaction judged against a UI
    /// clock.
    public var timeKind: MetricKind
    /// The shortest warm sample the runner batches calls up to (nanoseconds; 0 times one call
    /// per sample). See ``Batching``.
    public var batchTargetNanoseconds: Double

    /// One process's share of `total` samples when a run is split over `processes` fresh processes.
    ///
    /// The one place a total is split, for a test's own `samples:` and `--samples` alike: rounded up,
    /// and at least two per process so each process's median has a neighbour (one process keeps the total).
    /// - Parameters:
    ///   - total: The samples of the whole run.
    ///   - processes: Fresh processes the run is split over.
    /// - Returns: The samples each process takes.
    public static func share(of total: Int, processes: Int) -> Int {
        processes > 1 ? max(2, (total + processes - 1) / processes) : total
    }

    /// The older name of ``samples``.
    @available(*, deprecated, renamed: "samples")
    public var rounds: Int {
        get { samples }
        set { samples = newValue }
    }

    /// The older name of ``warmupCalls``.
    @available(*, deprecated, renamed: "warmupCalls")
    public var warmupIterations: Int {
        get { warmupCalls }
        set { warmupCalls = newValue }
    }

    /// Creates a configuration.
    public init(
        samples: Int = 30, warmupCalls: Int = 3, metrics: Set<Metric> = Set(Metric.defaultMeasured),
        phases: [Phase]? = nil, exactCountRounds: Int = 3, orderSeed: UInt64? = nil,
        timeKind: MetricKind = .componentCost,
        batchTargetNanoseconds: Double = Batching.targetSampleNanoseconds
    ) {
        self.timeKind = timeKind
        self.batchTargetNanoseconds = batchTargetNanoseconds
        self.samples = samples
        self.warmupCalls = warmupCalls
        self.metrics = metrics
        self.phases = phases
        self.exactCountRounds = exactCountRounds
        self.orderSeed = orderSeed
    }
}

/// Drives subjects through their phases, arms in counterbalanced order, and keeps every raw sample.
///
/// Per phase, the timed pass runs `rounds` rounds in ``RunOrder``; each arm takes one sample per
/// round. Warm and eviction states persist per arm across rounds; a cold sample gets fresh
/// state every time. A fast warm body is timed several calls per sample (``Batching``), and its
/// values are recorded per call with the calls in ``SampleSeries/callsPerSample``. The exact allocation count runs
/// afterwards in a pass of its own with its
/// own states, so its slower, cache-less allocations never touch a timed sample; that untimed pass,
/// one call a sample, also reads the subject counters of arms whose timed samples may be batched.
public struct Runner: Sendable {
    /// The configuration in use.
    public var configuration: RunConfiguration

    /// Creates a runner.
    public init(configuration: RunConfiguration) { self.configuration = configuration }

    /// Measures the arms and returns every sample.
    /// - Parameters:
    ///   - name: The measurement's name.
    ///   - arms: One or more arms; two or more run in ABBA order.
    /// - Returns: The raw result.
    /// - Throws: Whatever a subject throws.
    public func measure(_ name: String, arms: [Arm]) throws -> MeasurementResult {
        precondition(!arms.isEmpty, "a measurement needs at least one arm")
        TestSlowdown.prepare()  // the harness's own one-time read, outside every region
        // Swift Testing's backtrace of every thrown error is the harness's cost, not the subject's.
        return try ThrowHooks.suspended { try measureArms(name, arms) }
    }

    /// ``measure(_:arms:)``'s passes, with the will-throw hooks suspended (``ThrowHooks``).
    private func measureArms(_ name: String, _ arms: [Arm]) throws -> MeasurementResult {
        let supported = arms.map { Set($0.subject.phases) }.reduce(Set(Phase.allPhases)) { $0.intersection($1) }
        let phases = (configuration.phases ?? Phase.allPhases).filter { supported.contains($0) }
        // With two or more arms, round up to whole blocks so every arm holds every position equally often.
        let block = arms.count > 1 ? RunOrder.blockLength(armCount: arms.count) : 1
        let rounds = (configuration.samples + block - 1) / block * block
        let order = RunOrder(armCount: arms.count, roundCount: rounds, seed: configuration.orderSeed)
        let probes = ProbeSet(metrics: configuration.metrics)
        var collector = SeriesCollector()
        for phase in phases {
            try timedPass(arms, phase, order, probes, &collector)
            if !SimulatedCounter.isCounting { try untimedPass(arms, phase, order, &collector) }
        }
        // A counting process that also counts allocations does so after every counted pass, so no counted sample
        // follows an exact-count call's heap.
        if SimulatedCounter.countsAllocations {
            for phase in phases { try untimedPass(arms, phase, order, &collector) }
        }
        let unavailable =
            SimulatedCounter.isCounting
            ? []
            : configuration.metrics.sorted { $0.name < $1.name }.compactMap { metric in
                ProbeSet.unavailableReason(for: metric).map { UnavailableMetric(metric: metric.name, reason: $0) }
            }
        var result = MeasurementResult(
            name: name, arms: arms.map(\.name), order: order.rounds, series: collector.series,
            unavailable: unavailable + collector.unavailable)
        if !SimulatedCounter.isCounting { result.leakSites = try leakSites(arms, collector.series) }
        return result
    }

    /// The timed pass of one phase.
    ///
    /// Every round in ABBA order, warm and eviction states kept per arm across rounds, a fast warm body batched (under
    /// callgrind, one counted call a sample).
    private func timedPass(
        _ arms: [Arm], _ phase: Phase, _ order: RunOrder, _ probes: borrowing ProbeSet,
        _ collector: inout SeriesCollector
    ) throws {
        var states = [AnyObject?](repeating: nil, count: arms.count)
        var indices = [Int](repeating: 0, count: arms.count)
        var calls = [Int](repeating: 0, count: arms.count)  // 0: not calibrated yet
        for (round, armOrder) in order.rounds.enumerated() {
            for (position, armIndex) in armOrder.enumerated() {
                let label = SampleLabel(
                    arm: arms[armIndex].name, phase: phase, round: round, position: position, index: indices[armIndex])
                if SimulatedCounter.isCounting {
                    try takeCountedSample(arms[armIndex].subject, &states[armIndex], label, &collector)
                } else {
                    try takeTimedSample(
                        arms[armIndex].subject, &states[armIndex], &calls[armIndex], label, probes, &collector)
                }
                indices[armIndex] += 1
            }
            // A placement trial needs the first round's counts only: its process ends here.
            if SimulatedCounter.isPlacementTrial { SimulatedCounter.endPlacementTrial() }
        }
    }

    /// The untimed pass of one phase, with states of its own: one call a sample, never batched.
    ///
    /// It takes the exact allocation counts and the subject counters of every arm whose timed samples may be batched
    /// (their calls per sample follow the clock, and so would counters read over them). A counting run records
    /// simulated instructions only; the exact counts come from the native run.
    private func untimedPass(_ arms: [Arm], _ phase: Phase, _ order: RunOrder, _ collector: inout SeriesCollector)
        throws
    {
        var states = [AnyObject?](repeating: nil, count: arms.count)
        var indices = [Int](repeating: 0, count: arms.count)
        let exact =
            ExactAllocationCounter.unavailableReason == nil && !configuration.metrics.isDisjoint(with: Metric.exactPass)
        let batchable = arms.map { batches($0.subject, phase) }
        let exactRounds = exact ? configuration.exactCountRounds : 0
        let counterRounds = batchable.contains(true) ? configuration.counterRounds : 0
        for (round, armOrder) in order.rounds.prefix(max(exactRounds, counterRounds)).enumerated() {
            for (position, armIndex) in armOrder.enumerated() {
                let label = SampleLabel(
                    arm: arms[armIndex].name, phase: phase, round: round, position: position, index: indices[armIndex])
                try takeUntimedSample(
                    arms[armIndex].subject, &states[armIndex], label, exact: round < exactRounds,
                    counters: batchable[armIndex] && round < counterRounds, &collector)
                indices[armIndex] += 1
            }
        }
        guard exact, configuration.metrics.contains(.leakedAllocations) else { return }
        for (armIndex, arm) in arms.enumerated() {
            let label = SampleLabel(arm: arm.name, phase: phase, round: 0, position: 0, index: 0)
            try measureLeak(arm.subject, &states[armIndex], label, &collector)
        }
    }

    /// The arm's leaked allocations in `phase`.
    ///
    /// What stays per call across ``leakCalls`` calls and as many again, on the untimed pass's state
    /// (``ExactAllocationCounter/leakedPerCall(calls:_:)``).
    private func measureLeak<S: MeasurableSubject>(
        _ subject: S, _ slot: inout AnyObject?, _ label: SampleLabel, _ collector: inout SeriesCollector
    ) throws {
        let calls = Self.leakCalls(configuration)
        let growth = try ExactAllocationCounter.leakedPerCall(calls: calls) {
            let box = try prepare(subject, &slot, label.phase)
            blackHole(try subject.run(&box.value))  // released inside the window: a returned value is not a leak
        }
        collector.addLeak(growth, label, calls: calls)
    }

    /// k of the leak measurement: the exact-count rounds, at least 2.
    static func leakCalls(_ configuration: RunConfiguration) -> Int { max(2, configuration.exactCountRounds) }

    func prepare<S: MeasurableSubject>(_ subject: S, _ slot: inout AnyObject?, _ phase: Phase) throws
        -> StateBox<S.State>
    {
        if phase == .cold || slot == nil {
            let box = StateBox(try subject.makeState())
            if phase != .cold {
                for _ in 0..<configuration.warmupCalls { blackHole(try subject.run(&box.value)) }
                try subject.warmUp(&box.value)
            }
            slot = box
        }
        let box = slot as! StateBox<S.State>
        if phase == .eviction { try subject.evict(&box.value) }
        return box
    }

    private func takeTimedSample<S: MeasurableSubject>(
        _ subject: S, _ slot: inout AnyObject?, _ calls: inout Int, _ label: SampleLabel, _ probes: borrowing ProbeSet,
        _ collector: inout SeriesCollector
    ) throws {
        let box = try prepare(subject, &slot, label.phase)
        if calls == 0 {
            // Calibrated once per arm and phase, on warm state, before its first timed sample.
            calls =
                batches(subject, label.phase)
                ? try withUnsafeMutablePointer(to: &box.value) { state in
                    try Batching.calibrate(target: configuration.batchTargetNanoseconds) {
                        blackHole(try subject.run(&state.pointee))
                    }
                } : 1
        }
        // Running totals are recorded per run: read them before the run too (outside the timed region).
        let k = calls
        let counters = !batches(subject, label.phase)
        let before = counters ? Self.runningTotals(subject, box.value) : [:]
        // One exclusive access to the boxed state for the whole batch: `box.value` in the loop would
        // pay a dynamic exclusivity check a call, a cost of the harness that is not the body's.
        let (output, timed) = try withUnsafeMutablePointer(to: &box.value) { state in
            try probes.measureTimed {
                for _ in 1..<k { blackHole(try subject.run(&state.pointee)) }
                return try subject.run(&state.pointee)
            }
        }
        blackHole(output)
        let divisor = Double(k)  // divided, not multiplied by 1/k: 3k / k is exactly 3
        for (metric, value) in timed.values(for: configuration.metrics) {
            var recorded = metric
            if metric.unit == .nanoseconds { recorded.kind = configuration.timeKind }
            collector.add(recorded, value / divisor, label, calls: k)
        }
        for (metric, value) in probes.readMemory() { collector.add(metric, value, label, calls: k) }
        // A batchable arm's counters are left to the untimed pass: how many calls a sample makes
        // follows the clock, and warm state moves on with every call, so counters read over a batch
        // moved with the machine's load (12% in one demo run for the warm scroll's bytes and reuse).
        // Which pass reads them is decided by the configuration, never by the batch size the clock picked.
        if counters { Self.addCounters(subject, box.value, since: before, label, &collector) }
    }

    /// Whether an arm's timed samples in `phase` may be batched: warm, a subject that allows it, a batch target set.
    ///
    /// Such an arm's counters are read in the untimed pass.
    private func batches(_ subject: some MeasurableSubject, _ phase: Phase) -> Bool {
        phase == .warm && subject.allowsBatching && configuration.batchTargetNanoseconds > 0
    }

    /// The subject's running-total counters now, to subtract after a run.
    private static func runningTotals<S: MeasurableSubject>(_ subject: S, _ state: S.State) -> [Metric: Double] {
        var totals: [Metric: Double] = [:]
        for reading in subject.counters(state) where reading.accumulation == .runningTotal {
            totals[reading.metric] = reading.value
        }
        return totals
    }

    /// Records the subject's counters after a sample of one call (counters are never read over a batch).
    ///
    /// A running total as its change since `before`; any other counter as it reads.
    private static func addCounters<S: MeasurableSubject>(
        _ subject: S, _ state: S.State, since before: [Metric: Double], _ label: SampleLabel,
        _ collector: inout SeriesCollector
    ) {
        for reading in subject.counters(state) {
            let value =
                reading.accumulation == .runningTotal ? reading.value - (before[reading.metric] ?? 0) : reading.value
            collector.add(reading.metric, value, label)
        }
    }

    /// One sample of a counting run.
    ///
    /// One call, never batched (a calibrated batch size would follow the clock, which is not deterministic), with
    /// collection on for the body alone.
    private func takeCountedSample<S: MeasurableSubject>(
        _ subject: S, _ slot: inout AnyObject?, _ label: SampleLabel, _ collector: inout SeriesCollector
    ) throws {
        // Set up, warmed up and evicted on the measured thread, as the body runs (``PinnedHeap``).
        let box = try PinnedHeap.run { try prepare(subject, &slot, label.phase) }
        let before = Self.runningTotals(subject, box.value)
        let tag = "\(label.arm)|\(label.phase.identifier)|\(label.index)"
        let (output, reading, dump, threads) = try withUnsafeMutablePointer(to: &box.value) { state in
            try CountedRegion.count(label: tag) { try subject.run(&state.pointee) }
        }
        blackHole(output)
        if let reading { collector.addCounted(reading, label, dump: dump, threads: threads) }
        // The subject's own counters are deterministic too, and tests assert on them.
        Self.addCounters(subject, box.value, since: before, label, &collector)
    }

    /// One call of the untimed pass.
    ///
    /// Its exact allocation counts when `exact`, the subject's counters when `counters` (the arm's timed samples may be
    /// batched).
    private func takeUntimedSample<S: MeasurableSubject>(
        _ subject: S, _ slot: inout AnyObject?, _ label: SampleLabel, exact: Bool, counters: Bool,
        _ collector: inout SeriesCollector
    ) throws {
        let box = try prepare(subject, &slot, label.phase)
        let before = counters ? Self.runningTotals(subject, box.value) : [:]
        if exact {
            let descriptors = configuration.metrics.contains(.leakedDescriptors) ? OpenDescriptors.open() : nil
            // The returned value is released inside the window, so its frees are the call's.
            let (_, counts) = try ExactAllocationCounter.count { blackHole(try subject.run(&box.value)) }
            if let counts { collector.addAllocations(counts, label, metrics: configuration.metrics) }
            if let descriptors, let leaked = OpenDescriptors.leaked(since: descriptors) {
                collector.add(.leakedDescriptors, Double(leaked), label)
            }
        } else {
            blackHole(try subject.run(&box.value))
        }
        if counters { Self.addCounters(subject, box.value, since: before, label, &collector) }
    }
}
