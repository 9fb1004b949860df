import CThrowHooks

/// Swift Testing's backtrace of every thrown error, suspended while a measurement runs.
///
/// Swift Testing sets the Swift runtime's will-throw hooks when a run starts: from then on every
/// `throw` in the process, the measured body's included, captures a backtrace (an unwind of the
/// stack) and files it in a process-wide dictionary keyed by the error box's address. That is the
/// test harness's cost, not the component's, and it follows the harness's state. Measured in
/// swift-argument-parser's parse of 10 targets (Evidence.md): 159,183 of
/// 4,182,861 instructions a call (3.8%), and two counting runs of one build 26 and 72 instructions
/// apart there, in that dictionary's probing. A measurement (``Runner``, and the async `measure`)
/// suspends the hooks from its start to its end, so throwing code is measured at what it costs
/// outside a test, under `swift test` and `perfkit run` alike. The price: an error thrown meanwhile,
/// by any thread, has no backtrace of its throw in Swift Testing's report (the issue it records
/// still says where it was recorded).
package enum ThrowHooks {
    /// Runs `body` with the hooks suspended.
    ///
    /// Nested and overlapping measurements (Swift Testing runs tests in parallel) are counted, so the hooks come back
    /// when the last one ends.
    /// - Parameter body: The code to run.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    package static func suspended<T>(_ body: () throws -> T) rethrows -> T {
        suspend()
        defer { resume() }
        return try body()
    }

    /// Suspends the hooks until the matching ``resume()`` (for an async body, which a synchronous
    /// closure cannot wrap).
    package static func suspend() { perfkit_throw_hooks_suspend() }

    /// Undoes one ``suspend()``.
    package static func resume() { perfkit_throw_hooks_resume() }

    /// Whether either hook is set now (Swift Testing's, outside every measurement).
    package static var installed: Bool { perfkit_throw_hooks_installed() != 0 }

    /// Whether either hook is set now or kept by a suspension: true from Swift Testing's start on,
    /// whatever measurements other threads are running.
    package static var held: Bool { perfkit_throw_hooks_held() != 0 }
}
