import Foundation
import PerfKit
import Testing

/// An error with no payload: its box is one allocation a throw.
private struct Refusal: Error {}

/// A body that throws and catches ten errors a call, and notes whether the will-throw hooks were set.
private final class ThrowingBody: @unchecked Sendable {
    // Written by the measured thread only, read after the measurement.
    var hooksSeen: [Bool] = []
    func call() -> Int {
        hooksSeen.append(ThrowHooks.installed)
        var caught = 0
        for _ in 0..<10 {
            do { throw Refusal() } catch { caught += 1 }
        }
        return caught
    }
}

/// Swift Testing captures a backtrace of every thrown error (its will-throw hooks).
///
/// A measurement suspends them, so a throwing body is measured at what it costs outside a test.
@Suite struct ThrowHooksTests {
    /// Swift Testing sets the hooks when a run starts: the premise of the other tests.
    ///
    /// (Set now, or kept by a measurement another test is running: tests run in parallel.)
    @Test func swiftTestingSetsTheHooks() {
        #expect(ThrowHooks.held)
    }

    /// Inside every sample the hooks are clear; after the measurement they are back (or kept by
    /// another test's measurement).
    @Test func aMeasurementSuspendsTheHooksAndRestoresThem() throws {
        let body = ThrowingBody()
        let configuration = RunConfiguration(
            samples: 2, warmupCalls: 1, metrics: [.wallClock], phases: [.warm], exactCountRounds: 1)
        _ = try Runner(configuration: configuration).measure("throws", arms: [Arm("main", ClosureSubject(body.call))])
        #expect(!body.hooksSeen.isEmpty)
        #expect(body.hooksSeen.allSatisfy { !$0 })
        #expect(ThrowHooks.held)
    }

    /// Ten throws a call are ten allocations (the error boxes), exactly: with Swift Testing's hooks
    /// set, each throw also allocated its backtrace.
    @Test func aThrowingBodysExactAllocationsAreItsOwn() throws {
        let body = ThrowingBody()
        let configuration = RunConfiguration(
            samples: 2, warmupCalls: 1, metrics: [.wallClock, .mallocs], phases: [.warm], exactCountRounds: 3)
        let result = try Runner(configuration: configuration).measure(
            "throws", arms: [Arm("main", ClosureSubject(body.call))])
        // Without jemalloc (the trait off) the counts are unavailable: nothing to check.
        guard !result.unavailable.contains(where: { $0.metric == Metric.mallocs.name }) else { return }
        let mallocs = try #require(result.series(.mallocs, arm: "main", phase: .warm))
        #expect(Set(mallocs.values) == [10], "mallocs a call: \(mallocs.values)")
    }

    /// Overlapping measurements on two threads (Swift Testing runs tests in parallel).
    ///
    /// The hooks stay clear until the last one ends, then come back, never lost.
    @Test func overlappingSuspensionsRestoreTheHooksOnce() {
        ThrowHooks.suspend()
        let other = Thread {
            ThrowHooks.suspend()
            ThrowHooks.resume()
        }
        other.start()
        while !other.isFinished { usleep(1_000) }
        #expect(!ThrowHooks.installed)
        #expect(ThrowHooks.held)
        ThrowHooks.resume()
        #expect(ThrowHooks.held)
    }
}
