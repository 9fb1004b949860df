import PerfKitCore

extension Budget {
    /// The verdict on one series, with the message a test failure or warning shows.
    public struct Judgement: Sendable {
        /// The outcome recorded in the run file.
        public var outcome: BudgetOutcome
        /// The message of the test issue or warning.
        public var message: String
        /// A judgement.
        public init(outcome: BudgetOutcome, message: String) {
            self.outcome = outcome
            self.message = message
        }
    }

    /// Judges every series of the budget's metric in `measurements`.
    ///
    /// A metric the measurement could not record (for example allocation counts without jemalloc) is reported as not
    /// judged, with the reason, never as a pass on zero. In a process that leaves the exact-count pass to the first
    /// process of a `perfkit run`, a budget on an exact count has no judgement here: the first process's stands for the
    /// run.
    public func judge(_ measurements: [MeasurementResult], mode: PerformanceMode) -> [Judgement] {
        if let elsewhere = judgedElsewhere(measurements, mode: mode) { return elsewhere }
        var judgements: [Judgement] = []
        for measurement in measurements {
            for series in measurement.series where series.metric == metric {
                var judgement = judge(series, in: measurement.name, mode: mode)
                if metric == .leakedAllocations, judgement.outcome.status == .failed,
                    let sites = measurement.leakSites?.filter({ $0.belongs(to: series) }), !sites.isEmpty
                {
                    let named = sites.prefix(3).map { "\($0.function) (\(Format.trim($0.perCall)) a call)" }
                    judgement.message += "; allocated at " + named.joined(separator: ", ")
                    judgement.outcome.detail += "; allocated at " + named.joined(separator: ", ")
                }
                judgements.append(judgement)
            }
            if let unavailable = measurement.unavailable.first(where: { $0.metric == metric.name }),
                !measurement.series.contains(where: { $0.metric == metric })
            {
                let detail = "not judged: \(metric.name) is unavailable (\(unavailable.reason))"
                judgements.append(
                    Judgement(
                        outcome: BudgetOutcome(
                            measurement: measurement.name, arm: measurement.arms.joined(separator: ", "), phase: .warm,
                            metric: metric.name,
                            budget: text, status: .notJudged, detail: detail),
                        message: "\(metric.name) budget \(text) for \(measurement.name): \(detail)"))
            }
        }
        if judgements.isEmpty {
            // Never a silent pass: say what is missing and what to add.
            let detail =
                measurements.isEmpty
                ? "never judged: the test has .performance() but called no measure(…)"
                : "never judged: no measurement records \(metric.name); add it to .performance(metrics:) or report it "
                    + "from the subject's counters"
            judgements.append(
                Judgement(
                    outcome: BudgetOutcome(
                        measurement: "", arm: "", phase: .warm, metric: metric.name, budget: text, status: .failed,
                        detail: detail),
                    message: "\(metric.name) budget \(text): \(detail)"))
        }
        return judgements
    }

    /// What a budget judged by another process or build says here, or nil when it is judged here.
    ///
    /// Exact counts left to another process, counted metrics outside a counting run (never a silent pass), and a
    /// budget that states another build.
    private func judgedElsewhere(_ measurements: [MeasurementResult], mode: PerformanceMode) -> [Judgement]? {
        if mode.leavesExactCountsToAnotherProcess && Metric.exactPass.contains(metric) { return [] }
        // A counting run records simulated instructions only: every other budget is judged by the
        // native processes of the same run.
        if mode.kind == .count && !metric.isCounted { return [] }
        if metric.isCounted && mode.kind != .count {
            // Never a silent pass: a count budget outside a counting run says how to judge it.
            let detail =
                "not judged, run with counts (perfkit run --counts): \(metric.name) are counted only under valgrind"
            return [
                Judgement(
                    outcome: BudgetOutcome(
                        measurement: measurements.map(\.name).joined(separator: ", "), arm: "", phase: .warm,
                        metric: metric.name, budget: text,
                        status: .notJudged, detail: detail),
                    message: "\(metric.name) budget \(text): \(detail)")
            ]
        }
        if let build, build != mode.buildConfiguration {
            // Never a silent pass, never a false failure: a release figure is not a debug one.
            let detail = "not judged in \(mode.buildConfiguration): the limit holds for a \(build) build"
            return [
                Judgement(
                    outcome: BudgetOutcome(
                        measurement: measurements.map(\.name).joined(separator: ", "), arm: "", phase: .warm,
                        metric: metric.name, budget: text, status: .notJudged, detail: detail),
                    message: "\(metric.name) budget \(text): \(detail)")
            ]
        }
        return nil
    }

    private func judge(_ series: SampleSeries, in measurement: String, mode: PerformanceMode) -> Judgement {
        let place = "\(measurement) [\(series.arm), \(series.phase)]"
        func outcome(_ status: BudgetStatus, _ detail: String) -> Judgement {
            Judgement(
                outcome: BudgetOutcome(
                    measurement: measurement, arm: series.arm, phase: series.phase, metric: metric.name, budget: text,
                    status: status, detail: detail),
                message: "\(metric.name) budget \(text) for \(place): \(detail)")
        }
        if !metric.isDeterministic, let blocker = mode.timeJudgementBlocker {
            return outcome(.notJudged, "not judged: \(blocker)")
        }
        // No finite sample: the budget fails, saying so.
        guard let summary = try? Summary(series.values, percentiles: limits.map(\.percentile)) else {
            return outcome(.failed, "no valid samples")
        }
        var misses: [String] = []
        var targetMisses: [String] = []
        var observed: [String] = []
        for limit in limits {
            let value = limit.percentile == 100 ? summary.max : summary.percentile(limit.percentile) ?? summary.max
            observed.append("\(limit.label) = \(Format.value(value, metric.unit))")
            if value > limit.value {
                let line =
                    "\(limit.label) \(Format.value(value, metric.unit)) exceeds "
                    + "\(Format.value(limit.value, metric.unit))"
                if limit.isTarget { targetMisses.append(line) } else { misses.append(line) }
            }
        }
        // Exact counts can differ between debug and release builds (inlining, specialisation): say which one judged
        // them.
        let build = metric.isDeterministic ? ", \(mode.buildConfiguration) build" : ""
        if !misses.isEmpty {
            return outcome(.failed, misses.joined(separator: "; ") + " (\(summary.count) samples\(build))")
        }
        if !targetMisses.isEmpty { return outcome(.targetMissed, targetMisses.joined(separator: "; ")) }
        return outcome(
            .passed,
            observed.joined(separator: ", ") + (metric.isDeterministic ? " (\(mode.buildConfiguration) build)" : ""))
    }
}
