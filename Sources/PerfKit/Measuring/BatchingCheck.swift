import Foundation
import PerfKitCore

/// Checks batched timing against an outside reference on this machine.
///
/// A body of a few tens of nanoseconds measured through ``Runner`` against the same body timed in a long plain loop,
/// and an injected change of about 3% to it compared in ABBA order.
///
/// The body is a chain of dependent 64-bit xor-shift-multiply steps (the finaliser of SplitMix64),
/// which the optimizer cannot fold or reassociate, so its cost is linear in its step count:
/// `steps` = 33 costs a few tens of nanoseconds here, and 34 steps (+3.0%) is the injected change. Run by `perfkit
/// doctor --batching`; `Scripts/Evidence/batching-evidence.sh` repeats it.
package enum BatchingCheck {
    /// What one check found.
    package struct Outcome: Sendable {
        /// Multiply-add steps of the base body and of the changed one.
        package var steps: Int
        /// Steps of the changed body.
        package var changedSteps: Int
        /// Calls per sample the runner calibrated for the base body.
        package var callsPerSample: Int
        /// The base body's per-call median through the runner, in nanoseconds.
        package var measuredPerCall: Double
        /// The base body's per-call time in a plain loop (median of several loops), in nanoseconds.
        package var loopPerCall: Double
        /// The changed body's per-call time in the same loops, in nanoseconds.
        package var changedLoopPerCall: Double
        /// The paired comparison of the changed body against the base (wall clock, warm).
        package var row: ComparisonRow

        /// Relative error of the runner's per-call median against the loop: measured / loop − 1.
        package var measuredError: Double { measuredPerCall / loopPerCall - 1 }
        /// The injected change as the plain loops see it: changed / base − 1.
        package var loopChange: Double { changedLoopPerCall / loopPerCall - 1 }
        /// Whether the comparison flagged the changed body as a regression.
        package var detected: Bool { row.verdict == .regressed }
    }

    /// A body of `steps` dependent xor-shift-multiply steps; its state is the previous call's output.
    struct ChainSubject: MeasurableSubject {
        let steps: Int
        func makeState() -> UInt64 { 0x9E37_79B9_7F4A_7C15 }
        func run(_ state: inout UInt64) -> UInt64 {
            state = Self.chain(state, steps)
            return state
        }
        @inline(never)
        static func chain(_ seed: UInt64, _ steps: Int) -> UInt64 {
            var x = seed
            for _ in 0..<steps { x = (x ^ (x >> 31)) &* 0xBF58_476D_1CE4_E5B9 }
            return x
        }
    }

    /// Runs the check.
    /// - Parameters:
    ///   - steps: Steps of the base body.
    ///   - changedSteps: Steps of the changed body (34 against 33: +3.0%).
    ///   - rounds: ABBA rounds of the comparison.
    ///   - loopCalls: Calls in each reference loop.
    ///   - loops: Reference loops per body (the median is kept).
    ///   - batchTarget: The sample duration the runner batches calls up to, in nanoseconds.
    /// - Returns: What the check found.
    /// - Throws: ``StatisticsError`` when a statistic cannot be computed.
    package static func run(
        steps: Int = 33, changedSteps: Int = 34, rounds: Int = 30, loopCalls: Int = 1_000_000, loops: Int = 5,
        batchTarget: Double = Batching.targetSampleNanoseconds
    ) throws -> Outcome {
        // Step counts pass through an opaque call so the optimizer cannot fold the chains.
        let base = ChainSubject(steps: opaque(steps)), changed = ChainSubject(steps: opaque(changedSteps))
        var configuration = RunConfiguration(
            samples: rounds, warmupCalls: 1_000, metrics: [.wallClock], phases: [.warm], exactCountRounds: 0,
            batchTargetNanoseconds: batchTarget)
        configuration.counterRounds = 0  // a chain has no counters
        let result = try Runner(configuration: configuration).measure(
            "chain", arms: [Arm("base", base), Arm("changed", changed)])
        guard let a = result.series(.wallClock, arm: "base", phase: .warm),
            let b = result.series(.wallClock, arm: "changed", phase: .warm)
        else {
            throw StatisticsError.empty
        }
        var baseLoops: [Double] = [], changedLoops: [Double] = []
        for _ in 0..<loops {
            baseLoops.append(loopNanosecondsPerCall(base, calls: loopCalls))
            changedLoops.append(loopNanosecondsPerCall(changed, calls: loopCalls))
        }
        var paired = PairedSeries(
            test: "BatchingCheck", measurement: "chain", arm: "main", phase: .warm, metric: .wallClock,
            baseline: a.values, current: b.values)
        paired.currentRanSecond = b.positions.map { $0 == 1 }
        paired.callsPerSample = min(a.minimumCallsPerSample, b.minimumCallsPerSample)
        let comparison = try Comparison(
            paired: Pairing(paired: [paired], unpaired: []), bands: NoiseBands(defaultRelative: 0.01),
            environmentA: nil, environmentB: nil)
        return Outcome(
            steps: steps, changedSteps: changedSteps, callsPerSample: a.minimumCallsPerSample,
            measuredPerCall: try Quantile.median(a.values),
            loopPerCall: try Quantile.median(baseLoops), changedLoopPerCall: try Quantile.median(changedLoops),
            row: comparison.rows[0])
    }

    /// One plain loop of `calls` calls, timed by two clock reads: nanoseconds per call.
    @inline(never)
    static func loopNanosecondsPerCall(_ subject: ChainSubject, calls: Int) -> Double {
        var state = subject.makeState()
        let start = SystemClock.monotonicNanoseconds()
        for _ in 0..<calls { blackHole(subject.run(&state)) }
        return Double(SystemClock.monotonicNanoseconds() &- start) / Double(calls)
    }

    @inline(never) @_optimize(none)
    private static func opaque(_ value: Int) -> Int { value }
}
