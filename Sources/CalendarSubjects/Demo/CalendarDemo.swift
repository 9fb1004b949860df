import Foundation
import PerfKit

/// The parts of the calendar demo measured outside test processes.
///
/// Resident memory per policy and the retained-history stress fixture, each in fresh child processes of the `perfkit`
/// executable (`calendar-demo calendar memory`, `calendar-demo calendar history`).
package enum CalendarDemo {
    /// Resident memory of each policy, each sample in a fresh child process, alternated in ABBA order.
    /// - Parameters:
    ///   - rounds: ABBA rounds (one process per policy a round).
    ///   - executable: The `perfkit` executable.
    ///   - progress: Receives one line per process.
    /// - Returns: A test result with one series per memory metric and policy; every sample is its own process.
    /// - Throws: ``OrchestrationError/childFailed(_:)`` when a child fails or prints bad output.
    package static func measureMemory(rounds: Int, executable: String, progress: (String) -> Void = { _ in }) throws
        -> TestResult
    {
        let arms = ["reference", "native"]
        let order = RunOrder(armCount: 2, roundCount: rounds, seed: 0xABBA)
        var collector: [String: SampleSeries] = [:]
        for (round, armOrder) in order.rounds.enumerated() {
            for (position, armIndex) in armOrder.enumerated() {
                let values = try ChildNumbers.run(
                    executable, ["calendar", "memory", "--policy", arms[armIndex], "--days", "30"],
                    requiring: ["residentMemory"])
                progress(
                    "  memory round \(round + 1)/\(rounds) \(arms[armIndex]): resident "
                        + "\(Format.bytes(values["residentMemory"] ?? 0))"
                )
                for (name, metric) in [
                    ("residentMemory", Metric.residentMemory), ("peakResidentMemory", .peakResidentMemory),
                    ("allocatorResident", .allocatorResident),
                ] {
                    guard let value = values[name] else { continue }
                    let key = "\(name)|\(arms[armIndex])"
                    var series = collector[key] ?? SampleSeries(metric: metric, arm: arms[armIndex], phase: .warm)
                    series.append(value, round: round, position: position, index: series.values.count)
                    collector[key] = series
                }
            }
        }
        // Every sample comes from its own fresh process: the process is the unit here.
        let series = collector.keys.sorted().map { key in
            var s = collector[key]!
            s.processes = Array(s.values.indices)
            return s
        }
        let measurement = MeasurementResult(
            name: "process-30d", arms: arms, order: order.rounds, series: series, unavailable: [])
        return TestResult(
            id: "CalendarMemoryBenchmarks/processMemoryPerPolicy()", suite: "CalendarMemoryBenchmarks",
            measurements: [measurement])
    }

    /// Generates the retained history in three fresh processes and describes its time and memory.
    /// - Parameters:
    ///   - days: Days of history.
    ///   - executable: The `perfkit` executable.
    /// - Returns: A Markdown section.
    /// - Throws: ``OrchestrationError/childFailed(_:)``; ``StatisticsError`` for non-finite figures.
    package static func retainedHistorySection(days: Int, executable: String) throws -> String {
        let keys = ["generationNanoseconds", "residentAfter", "residentBefore", "items", "calendarEvents"]
        var samples: [[String: Double]] = []
        for _ in 0..<3 {
            samples.append(
                try ChildNumbers.run(executable, ["calendar", "history", "--days", String(days)], requiring: keys))
        }
        // Every key is present: ChildNumbers checked them.
        let times = try Summary(samples.map { $0["generationNanoseconds"] ?? .nan })
        let held = try Summary(samples.map { ($0["residentAfter"] ?? .nan) - ($0["residentBefore"] ?? .nan) })
        let items = Int(samples[0]["items"] ?? 0)
        return """
            ## Retained history workload

            The \(days)-day retained history holds \(items) items (\(Int(samples[0]["calendarEvents"] ?? 0)) calendar \
            events; per day 2,000 emails, 100 events, 1,000 notes and 10,000 podcast episodes). \
            Generating it in a fresh process takes \(Format.duration(times.median)) (median of 3 processes, range \
            \(Format.duration(times.min)) to \(Format.duration(times.max))) \
            and adds \(Format.bytes(held.median)) of resident memory (median; range \(Format.bytes(held.min)) to \
            \(Format.bytes(held.max))). \
            This is a stress fixture, not typical usage; its purpose is to weigh on process memory while the renderer \
            is measured.
            """
    }

    /// What `calendar-demo calendar history` prints.
    ///
    /// Generates the retained history in this (fresh) process and measures how long it took and how much resident
    /// memory it holds.
    /// - Parameters:
    ///   - days: Days of history.
    ///   - seed: The generator's seed.
    /// - Returns: `days`, `items`, `calendarEvents`, `generationNanoseconds`, `residentBefore`, `residentAfter`.
    package static func historyFigures(days: Int, seed: UInt64) -> [String: Double] {
        let before = ResidentMemory.currentBytes() ?? 0
        let start = SystemClock.monotonicNanoseconds()
        let history = RetainedHistory(days: days, seed: seed)
        let elapsed = SystemClock.monotonicNanoseconds() - start
        let after = ResidentMemory.currentBytes() ?? 0
        blackHole(history)
        return [
            "days": Double(days), "items": Double(history.itemCount), "calendarEvents": Double(history.events.count),
            "generationNanoseconds": Double(elapsed), "residentBefore": Double(before), "residentAfter": Double(after),
        ]
    }

    /// What `calendar-demo calendar memory` prints.
    ///
    /// Builds the stress workload (the retained history and 200 scroll steps of a `days`-day scene under `policy`) in
    /// this (fresh) process and reads its memory.
    /// - Parameters:
    ///   - policy: The viewport policy.
    ///   - days: Days of the scene and the history.
    /// - Returns: `residentMemory`, `peakResidentMemory`, `allocatorResident`, `retainedItems` and the scroll subject's
    ///   counters.
    package static func policyMemoryFigures(policy: ViewportPolicy, days: Int) -> [String: Double] {
        let history = RetainedHistory(days: days, seed: 42)
        let subject = ViewportScrollSubject(scene: CalendarScene(days: days), policy: policy)
        var state = subject.makeState()
        for _ in 0..<200 { blackHole(subject.run(&state)) }
        let values: [String: Double] = [
            "residentMemory": Double(ResidentMemory.currentBytes() ?? 0),
            "peakResidentMemory": Double(ResourceUsage.current().peakResidentBytes),
            "allocatorResident": Double(Jemalloc.totals()?.resident ?? 0),
            "retainedItems": Double(history.itemCount),
        ].merging(subject.counters(state).map { ($0.metric.name, $0.value) }) { a, _ in a }
        blackHole(history)
        blackHole(state)
        return values
    }
}
