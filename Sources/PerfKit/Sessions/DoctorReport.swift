import Foundation
import PerfKitCore

/// What `perfkit doctor` reports.
///
/// The machine, whether jemalloc really is the allocator, which probes work and what one read of each costs, and
/// optionally a check of batched timing.
package enum DoctorReport {
    /// The report's lines (it measures probe costs and a summary of 1,000,000 values: about a second).
    /// - Returns: The lines, in order.
    /// - Throws: ``StatisticsError`` if a timing cannot be summarised.
    package static func lines() throws -> [String] {
        var lines: [String] = []
        let environment = EnvironmentReader.current(buildConfiguration: Environment.currentBuildConfiguration)
        let machine = environment.machine
        lines.append("PerfKit doctor")
        lines.append("  machine:       \(machine.cpuModel), \(machine.cores) cores, \(machine.memoryBytes >> 30) GiB")
        lines.append("  system:        \(machine.operatingSystem), kernel \(machine.kernel)")
        lines.append("  governor:      \(machine.governor ?? "not readable (typical in a virtual machine)")")
        lines.append("  fingerprint:   \(machine.identifier)")
        lines.append("  swift:         \(environment.swiftVersion)")
        lines.append(
            "  build:         \(environment.buildConfiguration)"
                + (environment.isRelease ? "" : " (timings from a debug build are not representative)"))
        lines.append(
            "  source:        \(environment.commit.prefix(12)) on "
                + "\(environment.branch)\(environment.dirty ? " (dirty)" : "")"
        )
        if let problem = Jemalloc.verifyIsProcessAllocator() {
            lines.append("  allocator:     system malloc; jemalloc is not the process allocator: \(problem)")
        } else {
            lines.append("  allocator:     jemalloc (checked by allocating 4 KiB and reading thread.allocatedp)")
        }
        lines.append("")
        lines.append("Probes (metric, scope, availability):")
        for metric in Metric.builtIn {
            let reason = ProbeSet.unavailableReason(for: metric)
            let status = reason.map { "unavailable: \($0)" } ?? "available"
            lines.append(
                "  \(metric.name.padding(toLength: 20, withPad: " ", startingAt: 0)) "
                    + "\(metric.scope.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) \(status)"
            )
        }
        lines.append("")
        lines.append("Cost of one read (median of 15 batches, \(environment.buildConfiguration) build):")
        for entry in ProbeCost.measureAll() {
            let cost =
                entry.unavailableReason.map { "unavailable: \($0)" }
                ?? String(format: "%10.1f ns", entry.nanosecondsPerRead)
            lines.append("  \(entry.probe.padding(toLength: 62, withPad: " ", startingAt: 0)) \(cost)")
        }
        var generator = SeededGenerator(seed: 1)
        let samples = (0..<1_000_000).map { _ in Double(generator.next() >> 11) / Double(1 << 53) * 1_000 }
        var times: [Double] = []
        for _ in 0..<5 {
            let start = SystemClock.monotonicNanoseconds()
            blackHole(try Summary(samples))
            times.append(Double(SystemClock.monotonicNanoseconds() - start))
        }
        lines.append("")
        lines.append(
            "Statistics: summarising 1,000,000 samples takes \(Format.duration(try Summary(times).median)) (median of "
                + "5, \(environment.buildConfiguration) build)"
        )
        return lines
    }

    /// One ``BatchingCheck``, in three lines (a figure a line, so a script can count them).
    /// - Parameter build: The build configuration, named in the heading.
    /// - Returns: The lines.
    /// - Throws: ``StatisticsError`` if the check cannot be summarised.
    package static func batchingLines(build: String) throws -> [String] {
        let check = try BatchingCheck.run()
        let row = check.row
        let change =
            row.change.map {
                String(
                    format: "%+.2f%% [%+.2f%%, %+.2f%%]", ($0.value - 1) * 100, ($0.lower - 1) * 100,
                    ($0.upper - 1) * 100)
            } ?? "undefined"
        let injected = String(
            format: "  injected change (%d → %d steps): loop %+.2f%%; ", check.steps, check.changedSteps,
            check.loopChange * 100)
        return [
            "",
            "Batched timing (\(build) build; a chain of \(check.steps) xor-shift-multiply steps, "
                + "\(check.callsPerSample) calls a sample):",
            String(
                format: "  measured per call: %.2f ns; 1,000,000-call loop: %.2f ns; error %+.1f%%",
                check.measuredPerCall, check.loopPerCall,
                check.measuredError * 100),
            injected + "measured \(change), verdict \(row.verdict.identifier)",
        ]
    }
}
