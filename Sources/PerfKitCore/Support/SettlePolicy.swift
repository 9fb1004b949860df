import Foundation

/// How long PerfKit waits for work a measured body left behind, and how often it looks: every such wait, in one place.
///
/// A body can leave work running when it returns: jobs on its thread, frees on a Dispatch thread that resumed it,
/// threads the warm-up woke on their way back to sleep, Dispatch blocks it queued in a counting run. Each wait below
/// is one of those; the counting shim's waits (C) take ``carriedBlocks`` through the counting process's environment
/// (``environment``). ``wait(while:)`` is the one place a wait sleeps.
package struct SettlePolicy: Sendable, Equatable {
    /// How long one look waits (zero: the caller yields instead of sleeping).
    package var step: Duration
    /// The longest the whole wait lasts.
    package var limit: Duration

    /// Jobs the body left on its thread, after an exact-count call: looked at each time the thread yields.
    package static let jobs = SettlePolicy(step: .zero, limit: .milliseconds(100))
    /// Frees of the window's blocks other threads are still making (a Dispatch thread that resumed the body).
    package static let frees = SettlePolicy(step: .milliseconds(1), limit: .milliseconds(100))
    /// Steps without a free after which ``frees`` counts as settled.
    package static let quietFrees = 5
    /// Threads the warm-up woke going back to waiting before a counting run's first sample.
    ///
    /// A Dispatch queue's worker still on its way moved that sample's wake-up path (36,705 against 36,609
    /// instructions).
    package static let wokenThreads = SettlePolicy(step: .milliseconds(20), limit: .milliseconds(20))
    /// Dispatch blocks carried into a counted region (the counting shim's three waits).
    ///
    /// Held until the body's thread sleeps, awaited when it wakes and when the region ends.
    package static let carriedBlocks = SettlePolicy(step: .microseconds(50), limit: .milliseconds(100))

    /// How a wait ended.
    package struct Outcome: Sendable, Equatable {
        /// How long it waited.
        package var waited: Duration
        /// Whether it reached the limit with work still going.
        package var ranOut: Bool
    }

    /// Sleeps a step at a time while `busy` says work remains, up to the limit.
    @discardableResult
    package func wait(while busy: () -> Bool) -> Outcome {
        let start = ContinuousClock.now
        while busy() {
            let waited = ContinuousClock.now - start
            if waited >= limit { return Outcome(waited: waited, ranOut: true) }
            usleep(UInt32(Self.microseconds(step)))
        }
        return Outcome(waited: ContinuousClock.now - start, ranOut: false)
    }

    /// The environment that hands ``carriedBlocks`` to the counting shim: its step and its number of steps.
    package static var environment: [String: String] {
        [
            stepVariable: String(microseconds(carriedBlocks.step)),
            stepsVariable: String(Int64(carriedBlocks.limit / carriedBlocks.step)),
        ]
    }

    /// Waits the whole limit, looking at nothing (``wokenThreads``).
    package func pause() {
        wait { true }
    }

    private static func microseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000
    }

    /// Microseconds of one step of the shim's waits.
    package static let stepVariable = "PERFKIT_SETTLE_STEP_US"
    /// Steps of the shim's waits before they run out.
    package static let stepsVariable = "PERFKIT_SETTLE_STEPS"
}
