import Foundation
import PerfKit
import PerfKitCommandLine

/// `perfkit doctor`: what this machine is, whether jemalloc really is the allocator, which probes work and what they
/// cost.
enum DoctorCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, verb: "doctor")
        try parsed.requirePositionals(0...0)
        for line in try DoctorReport.lines() { Output.line(line) }
        if parsed.has(.batching) {
            for line in try DoctorReport.batchingLines(build: Environment.currentBuildConfiguration) {
                Output.line(line)
            }
        }
        return 0
    }
}
