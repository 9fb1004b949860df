import Foundation
import PerfKit

/// `perfkit doctor`: what this machine is, whether jemalloc really is the allocator, which probes work and what they cost.
enum DoctorCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, verb: "doctor")
        try parsed.requirePositionals(0...0, usage: "perfkit doctor")
        let environment = EnvironmentReader.current(buildConfiguration: Environment.currentBuildConfiguration)
        let machine = environment.machine
        Output.line("PerfKit doctor")
        Output.line("  machine:       \(machine.cpuModel), \(machine.cores) cores, \(machine.memoryBytes >> 30) GiB")
        Output.line("  system:        \(machine.operatingSystem), kernel \(machine.kernel)")
        Output.line("  governor:      \(machine.governor ?? "not readable (typical in a virtual machine)")")
        Output.line("  fingerprint:   \(machine.identifier)")
        Output.line("  swift:         \(environment.swiftVersion)")
        Output.line(
            "  build:         \(environment.buildConfiguration)" + (environment.isRelease ? "" : " (timings from a debug build are not representative)"))
        Output.line("  source:        \(environment.commit.prefix(12)) on \(environment.branch)\(environment.dirty ? " (dirty)" : "")")
        if let problem = Jemalloc.verifyIsProcessAllocator() {
            Output.line("  allocator:     system malloc; jemalloc is not the process allocator: \(problem)")
        } else {
            Output.line("  allocator:     jemalloc (checked by allocating 4 KiB and reading thread.allocatedp)")
        }
        Output.line("")
        Output.line("Probes (metric, scope, availability):")
        for metric in Metric.builtIn {
            let reason = ProbeSet.unavailableReason(for: metric)
            let status = reason.map { "unavailable: \($0)" } ?? "available"
            Output.line(
                "  \(metric.name.padding(toLength: 20, withPad: " ", startingAt: 0)) \(metric.scope.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) \(status)"
            )
        }
        Output.line("")
        Output.line("Cost of one read (median of 15 batches, \(environment.buildConfiguration) build):")
        for entry in ProbeCost.measureAll() {
            let cost = entry.unavailableReason.map { "unavailable: \($0)" } ?? String(format: "%10.1f ns", entry.nanosecondsPerRead)
            Output.line("  \(entry.probe.padding(toLength: 62, withPad: " ", startingAt: 0)) \(cost)")
        }
        var generator = SeededGenerator(seed: 1)
        let samples = (0..<1_000_000).map { _ in Double(generator.next() >> 11) / Double(1 << 53) * 1_000 }
        var times: [Double] = []
        for _ in 0..<5 {
            let start = SystemClock.monotonicNanoseconds()
            blackHole(try Summary(samples))
            times.append(Double(SystemClock.monotonicNanoseconds() - start))
        }
        Output.line("")
        Output.line(
            "Statistics: summarising 1,000,000 samples takes \(Format.duration(try Summary(times).median)) (median of 5, \(environment.buildConfiguration) build)"
        )
        if parsed.flags.contains("batching") { try reportBatching(build: environment.buildConfiguration) }
        return 0
    }

    /// `--batching`: one ``BatchingCheck``, in one line a figure so a script can count them.
    private static func reportBatching(build: String) throws {
        let check = try BatchingCheck.run()
        let row = check.row
        let change =
            row.change.map { String(format: "%+.2f%% [%+.2f%%, %+.2f%%]", ($0.value - 1) * 100, ($0.lower - 1) * 100, ($0.upper - 1) * 100) } ?? "undefined"
        Output.line("")
        Output.line("Batched timing (\(build) build; a chain of \(check.steps) multiply-adds, \(check.callsPerSample) calls a sample):")
        Output.line(
            String(
                format: "  measured per call: %.2f ns; 1,000,000-call loop: %.2f ns; error %+.1f%%", check.measuredPerCall, check.loopPerCall,
                check.measuredError * 100))
        let injected = String(format: "  injected change (%d → %d steps): loop %+.2f%%; ", check.steps, check.changedSteps, check.loopChange * 100)
        Output.line(injected + "measured \(change), verdict \(row.verdict.identifier)")
    }
}
