import Foundation
import PerfKit

/// `perfkit calibrate [--rounds N] [--filter REGEX] [--repeats K]`: A/A comparisons of the current
/// build against itself, in ABBA order; stores per-series noise bands for this machine, which
/// `compare` and `abba` then use.
enum CalibrateCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, verb: "calibrate")
        try parsed.requirePositionals(0...0, usage: "perfkit calibrate [--rounds N] [--filter REGEX] [--repeats K]")
        let rounds = try parsed.integer("rounds", default: AbbaCommand.defaultRounds, range: 2...1_000)
        let repeats = try parsed.integer("repeats", default: 5, range: 1...1_000)
        let iterations = try parsed.options["iterations"].map { _ in try parsed.integer("iterations", default: 30) }
        let filter = parsed.options["filter"] ?? RunCommand.defaultFilter
        let current = try Revision.prepare(".", progress: Output.progress)
        let bundle = try current.build(pinnedLayout: true, progress: Output.progress)
        let machine = EnvironmentReader.machine()
        var comparisons: [Comparison] = []
        for k in 0..<repeats {
            Output.progress("perfkit calibrate: A/A repeat \(k + 1)/\(repeats)")
            let arm = AbbaSession.Arm(revision: current, bundle: bundle)
            let session = try AbbaSession.run(
                a: arm, b: arm, rounds: rounds, filter: filter, iterations: iterations, seed: 0xCA1B + UInt64(k), launcher: TestBundleLauncher(),
                progress: Output.progress)
            comparisons.append(try Comparison(paired: session.pairing, bands: NoiseBandsFile.pairedDefault, environmentA: nil, environmentB: nil))
        }
        let calibration = NoiseCalibration(comparisons: comparisons, machine: machine, rounds: rounds)
        let path = parsed.options["output"] ?? NoiseBandsFile.defaultPath(machine)
        try StoredFile.write(calibration, to: path)
        let flagged = comparisons.filter { $0.hasRegression || $0.count(.improved) > 0 }.count
        Output.line(
            "A/A: \(flagged) of \(repeats) repeats flagged a change under the default ±\(Format.trim(NoiseBandsFile.pairedDefault.defaultRelative * 100))% band"
        )
        for entry in calibration.entries where entry.id.metric == Metric.wallClock.name {
            Output.line(
                "  \(entry.id): band ±\(Format.trim(entry.band * 100))%, resolves about \(Format.trim(entry.resolvableChange * 100))% with \(rounds) rounds, false alarms \(entry.falseAlarms)/\(entry.repeats)"
            )
        }
        Output.line("noise bands: \(path)")
        return 0
    }
}
