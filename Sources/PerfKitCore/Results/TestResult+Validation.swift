extension MetricUnit {
    /// The units PerfKit writes.
    static let known: Set<MetricUnit> = [.nanoseconds, .bytes, .count, .instructions]
}

extension SampleSeries {
    /// The first problem of this series.
    ///
    /// No values, label arrays of another length than the values, a value that is not finite, or a unit this version
    /// does not know.
    package func validationProblem() -> String? {
        guard MetricUnit.known.contains(metric.unit) else { return "unknown unit '\(metric.unit.symbol)'" }
        guard !values.isEmpty else { return "empty sample" }
        guard rounds.count == values.count, positions.count == values.count, sampleIndices.count == values.count else {
            return
                "\(values.count) values but \(rounds.count) rounds, \(positions.count) positions and "
                + "\(sampleIndices.count) sample indices"
        }
        if let processes, processes.count != values.count {
            return "\(values.count) values but \(processes.count) process labels"
        }
        if let calls = callsPerSample {
            guard calls.count == values.count else {
                return "\(values.count) values but \(calls.count) calls-per-sample labels"
            }
            if let bad = calls.firstIndex(where: { $0 < 1 }) {
                return "calls per sample \(bad) is \(calls[bad]), not a positive count"
            }
        }
        if let threads = threadsStarted, threads.count != values.count {
            return "\(values.count) values but \(threads.count) started-thread counts"
        }
        if let bad = values.firstIndex(where: { !$0.isFinite }) {
            return "value \(bad) is \(values[bad]), not a finite number"
        }
        return nil
    }
}

extension Array: ValidatedOnLoad where Element == TestResult {
    package func validationProblem() -> String? {
        for test in self {
            for measurement in test.measurements {
                for series in measurement.series {
                    if let problem = series.validationProblem() {
                        return
                            "\(test.id) \(measurement.name) "
                            + "\(series.arm)/\(series.phase.identifier)/\(series.metric.name): \(problem)"
                    }
                }
            }
        }
        return nil
    }
}
