import PerfKitCore

/// Replication across processes: the level where a stored run's variance lives.
extension SampleSeries {
    /// How many processes the values came from (1 when unlabelled).
    public var processCount: Int { Set(processes ?? [0]).count }

    /// How far the per-process medians spread: the highest over the lowest, minus one (0 for one process).
    ///
    /// For a counting run, whose processes differ only in a shifted heap, it says how much the series follows heap
    /// addresses.
    public var processSpread: Double {
        let medians = processMedians()
        guard medians.count > 1, let low = medians.min(), let high = medians.max(), low > 0 else { return 0 }
        return high / low - 1
    }

    /// The median of each process's values, in process order.
    ///
    /// The unit a comparison of two stored runs tests, so that drift between processes is inside its noise estimate.
    /// - Complexity: O(n log n).
    public func processMedians() -> [Double] {
        // Non-finite values (refused when a file is read) give nan, which every judgement skips.
        guard let processes else { return values.isEmpty ? [] : [(try? Quantile.median(values)) ?? .nan] }
        var byProcess: [Int: [Double]] = [:]
        for (value, process) in zip(values, processes) { byProcess[process, default: []].append(value) }
        // A process with no finite value has no median and no vote.
        return byProcess.keys.sorted().compactMap { try? Quantile.median(byProcess[$0]!) }
    }
}

extension Array where Element == TestResult {
    /// Merges the results of the same tests measured in several fresh processes into one set.
    ///
    /// Every value is labelled with its process (0, 1, …, in the order given).
    /// - Parameter processes: Each process's results.
    /// - Returns: One result per test id: measurements matched by name, series by metric, arm and
    ///   phase, values concatenated with their process labels; budget outcomes of every process kept.
    /// - Complexity: O(total values).
    public static func merging(processes: [[TestResult]]) -> [TestResult] {
        var merged: [String: TestResult] = [:]
        var order: [String] = []
        for (process, tests) in processes.enumerated() {
            for test in tests {
                let labelled = test.labelled(process: process)
                guard var existing = merged[test.id] else {
                    merged[test.id] = labelled
                    order.append(test.id)
                    continue
                }
                for measurement in labelled.measurements {
                    guard let m = existing.measurements.firstIndex(where: { $0.name == measurement.name }) else {
                        existing.measurements.append(measurement)
                        continue
                    }
                    if let more = measurement.fallbacks {
                        existing.measurements[m].fallbacks = (existing.measurements[m].fallbacks ?? []) + more
                    }
                    for series in measurement.series {
                        if let s = existing.measurements[m].series.firstIndex(where: {
                            $0.metric == series.metric && $0.arm == series.arm && $0.phase == series.phase
                        }) {
                            existing.measurements[m].series[s].appendAll(of: series)
                        } else {
                            existing.measurements[m].series.append(series)
                        }
                    }
                }
                existing.budgets += labelled.budgets
                merged[test.id] = existing
            }
        }
        return order.map { merged[$0]! }
    }
}

extension TestResult {
    /// The result with every value labelled as coming from `process`.
    func labelled(process: Int) -> TestResult {
        var copy = self
        for m in copy.measurements.indices {
            for s in copy.measurements[m].series.indices {
                copy.measurements[m].series[s].processes = Array(
                    repeating: process, count: copy.measurements[m].series[s].values.count)
            }
        }
        return copy
    }
}

extension SampleSeries {
    /// Appends every labelled value of `other` (same metric, arm and phase).
    mutating func appendAll(of other: SampleSeries) {
        let mine = processes ?? Array(repeating: 0, count: values.count)
        if threadsStarted != nil || other.threadsStarted != nil {
            threadsStarted =
                (threadsStarted ?? Array(repeating: 0, count: values.count))
                + (other.threadsStarted ?? Array(repeating: 0, count: other.values.count))
        }
        if callsPerSample != nil || other.callsPerSample != nil {
            callsPerSample =
                (callsPerSample ?? Array(repeating: 1, count: values.count))
                + (other.callsPerSample ?? Array(repeating: 1, count: other.values.count))
        }
        values += other.values
        rounds += other.rounds
        positions += other.positions
        sampleIndices += other.sampleIndices
        processes = mine + (other.processes ?? Array(repeating: 0, count: other.values.count))
        if callgrindDumps != nil || other.callgrindDumps != nil {
            callgrindDumps = (callgrindDumps ?? []) + (other.callgrindDumps ?? [])
        }
        profile = profile ?? other.profile  // the first process's: one profile stands for the series
        heapUnpinned = heapUnpinned ?? other.heapUnpinned
    }
}
