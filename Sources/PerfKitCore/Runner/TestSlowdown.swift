import Foundation

/// A test-only switch that makes a measured subject slower by a known percentage.
///
/// It lets comparisons be checked against an injected change (`PERFKIT_TEST_SLOWDOWN_PERCENT=3`).
/// Zero, and a single comparison per run, in normal use.
package enum TestSlowdown {
    /// The injected slowdown in percent, from `PERFKIT_TEST_SLOWDOWN_PERCENT`.
    package static let percent: Double =
        ProcessEnvironment.value("PERFKIT_TEST_SLOWDOWN_PERCENT").flatMap(Double.init) ?? 0

    /// Reads ``percent`` now, before any measured region.
    ///
    /// Its first read had been inside the first
    /// cold artwork sample, and cost 160 instructions more in one run than another, when
    /// it built the whole environment's dictionary; it reads one variable now.
    package static func prepare() { blackHole(percent) }

    /// The start of the work to stretch.
    ///
    /// A clock reading when a slowdown is set, otherwise 0 without reading the clock, so the switch costs nothing
    /// inside a timed region when off.
    @inline(__always)
    package static func start() -> UInt64 { percent > 0 ? SystemClock.monotonicNanoseconds() : 0 }

    /// Busy-waits so that the work since `start` takes `percent` longer.
    /// - Parameter start: The value ``start()`` returned when the work began.
    @inline(__always)
    package static func stretch(since start: UInt64) {
        guard percent > 0 else { return }
        let now = SystemClock.monotonicNanoseconds()
        let target = now + UInt64(Double(now - start) * percent / 100)
        while SystemClock.monotonicNanoseconds() < target {}
    }
}
