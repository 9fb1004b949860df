import Foundation
import PerfKit
import PerfKitCommandLine

/// `perfkit calibrate`.
///
/// A/A comparisons between two separate release builds of the working tree's commit, in ABBA order; stores per-series
/// noise bands for this machine, which `compare` and `abba` then use.
enum CalibrateCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, verb: "calibrate")
        try parsed.requirePositionals(0...0)
        let rounds = try parsed.integer(.rounds, default: 24, range: AbbaSession.minimumRounds...1_000)
        let repeats = try parsed.integer(.repeats, default: 1, range: 1...1_000)
        let samples = try parsed.integer(.samples)
        let filter = parsed[.filter] ?? MeasuredRun.defaultFilter
        let buildSystem = try RunCommand.buildSystem(parsed)
        let started = Date()
        if try Revision.prepare(".").commit.hasSuffix("+dirty") {
            Output.progress("perfkit calibrate: calibrating HEAD; uncommitted changes are not in these builds")
        }
        // Two worktrees of one commit, each built on its own: the bands then include what a rebuild
        // moves (code layout), not only what one binary measured twice does.
        let builds = try ["calibrate-1", "calibrate-2"].map { name in
            var revision = try Revision.prepare("HEAD", worktree: name, progress: Output.progress)
            revision.buildSystem = buildSystem
            return AbbaSession.Side(
                revision: revision, bundle: try revision.build(pinnedLayout: true, progress: Output.progress))
        }
        let machine = EnvironmentReader.machine()
        var comparisons: [Comparison] = []
        for k in 0..<repeats {
            Output.progress("perfkit calibrate: A/A repeat \(k + 1)/\(repeats) between two builds of HEAD")
            let session = try AbbaSession.run(
                a: builds[0], b: builds[1], plan: .fixed(rounds: rounds), bands: NoiseBandsFile.pairedDefault,
                filter: filter, samples: samples,
                seed: 0xCA1B + UInt64(k), launcher: TestBundleLauncher(), progress: Output.progress)
            comparisons.append(session.comparison)
        }
        let calibration = NoiseCalibration(comparisons: comparisons, machine: machine, rounds: rounds)
        let path = parsed[.output] ?? NoiseBandsFile.defaultPath(machine)
        try StoredFile.write(calibration, to: path)
        Output.line(
            NoiseCalibration.summary(
                calibration, comparisons: comparisons, seconds: Int(Date().timeIntervalSince(started))))
        Output.line("noise bands: \(path)")
        return 0
    }
}
