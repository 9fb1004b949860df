/// Labels of one sample.
struct SampleLabel {
    var arm: String
    var phase: Phase
    var round: Int
    var position: Int
    var index: Int
}

/// Mutable state of one arm between rounds, boxed so arms of different subject types share a list.
final class StateBox<Value> {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// Gathers samples into series, keeping first-seen order.
struct SeriesCollector {
    private(set) var series: [SampleSeries] = []
    /// Metrics found not to hold while the samples were taken, with why.
    var unavailable: [UnavailableMetric] = []
    /// What the passes fell back on, per pass and sample.
    var fallbacks: [Fallback] = []
    private var index: [String: Int] = [:]

    /// Drops every series of `metric` (a figure found not to hold after it was taken).
    mutating func remove(_ metric: Metric) {
        series.removeAll { $0.metric == metric }
        index = index.filter { !$0.key.hasPrefix(metric.name + "\u{1}") }
        for (slot, entry) in series.enumerated() {
            index["\(entry.metric.name)\u{1}\(entry.arm)\u{1}\(entry.phase.identifier)"] = slot
        }
    }

    /// Adds one exact-count call: its mallocs and frees, as wanted.
    mutating func addAllocations(_ counts: ExactAllocationCounter.Counts, _ label: SampleLabel, metrics: Set<Metric>) {
        if metrics.contains(.mallocs) { add(.mallocs, Double(counts.mallocs), label) }
        if metrics.contains(.frees) { add(.frees, Double(counts.frees), label) }
    }

    /// Adds what stays per call as the arm and phase's leaked allocations, or says why there is no figure.
    ///
    /// From ``ExactAllocationCounter/leakedPerCall(calls:_:)``: a fall is a measurement error, never a negative leak.
    mutating func addLeak(_ growth: ExactAllocationCounter.Growth, _ label: SampleLabel, calls: Int) {
        switch growth {
        case .perCall(let value): add(.leakedAllocations, value, label)
        case .fell(let value):
            unavailable.append(
                UnavailableMetric(
                    metric: Metric.leakedAllocations.name,
                    reason: "live allocations fell by \(Format.trim(value)) a call between \(calls) and \(2 * calls) "
                        + "calls [\(label.arm), \(label.phase)]: the body freed what was made before the window, a "
                        + "measurement error, not a negative leak"))
        case .unavailable: break
        }
    }

    /// Adds one counted sample: its instructions (with the dump and threads) and its reference counting.
    mutating func addCounted(_ reading: DumpCount.Reading, _ label: SampleLabel, dump: Int, threads: Int) {
        add(.instructions, Double(reading.instructions), label, dump: dump, threads: threads)
        add(.retains, Double(reading.retains), label)
        add(.releases, Double(reading.releases), label)
        add(.objectAllocations, Double(reading.objectAllocations), label)
    }

    mutating func add(
        _ metric: Metric, _ value: Double, _ label: SampleLabel, calls: Int = 1, dump: Int? = nil, threads: Int = 0
    ) {
        let key = "\(metric.name)\u{1}\(label.arm)\u{1}\(label.phase.identifier)"
        let slot: Int
        if let existing = index[key] {
            slot = existing
        } else {
            slot = series.count
            index[key] = slot
            series.append(SampleSeries(metric: metric, arm: label.arm, phase: label.phase))
        }
        series[slot].append(
            value, round: label.round, position: label.position, index: label.index, calls: calls)
        if let dump {
            series[slot].callgrindDumps = (series[slot].callgrindDumps ?? []) + [dump]
            // Read after each sample: the pinned range can run out part-way through a test.
            series[slot].heapUnpinned = PinnedHeap.unavailableReason
        }
        if threads != 0 || series[slot].threadsStarted != nil {
            let before = series[slot].values.count - 1
            series[slot].threadsStarted =
                (series[slot].threadsStarted ?? Array(repeating: 0, count: before)) + [threads]
        }
    }
}
