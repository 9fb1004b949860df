import PerfKitCore
import Synchronization

/// The measurement state of one running measured test, reached through a task-local value.
///
/// A reference type with a `Mutex`: `measure` may be called from any task the test body starts,
/// and the trait reads the collected results after the body returns.
package final class PerformanceContext: Sendable {
    /// The context of the current test, if it carries the performance trait.
    @TaskLocal package static var current: PerformanceContext?

    /// The test's identifier.
    package let testID: String
    /// The configuration in effect (already adjusted for the mode).
    package let configuration: RunConfiguration
    /// Smoke or measure mode.
    package let mode: PerformanceMode
    private let results = Mutex<[MeasurementResult]>([])

    init(testID: String, configuration: RunConfiguration, mode: PerformanceMode) {
        self.testID = testID
        self.configuration = configuration
        self.mode = mode
    }

    /// The measurements recorded so far, in order.
    package var measurements: [MeasurementResult] { results.withLock { $0 } }

    func append(_ result: MeasurementResult) { results.withLock { $0.append(result) } }
}
