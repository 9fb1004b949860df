import Foundation
import PerfKitCore

extension CountingRun {
    /// What a counting run is asked to count, and how: one value for ``measure(_:progress:)`` and
    /// ``start(_:progress:)``.
    package struct Request: Sendable {
        /// The release test bundle.
        package var bundle: String
        /// The package directory (the processes' working directory).
        package var directory: String
        /// The tests to count (a Swift Testing filter).
        package var filter: String
        /// Samples per arm and phase, if forced (default ``SimulatedCounter/samplesPerArmAndPhase``).
        package var countSamples: Int?
        /// From ``CountingRun/prepare(directory:progress:)``.
        package var setup: Setup
        /// Variables added to the fixed environment (test-only, for example an injected change).
        package var environment: [String: String] = [:]
        /// Counting processes at once (``CountingRun/defaultJobs``).
        package var jobs = CountingRun.defaultJobs
        /// The heap shifts, one process each (``CountingRun/heapPads``; tests pass more).
        package var heapPads = CountingRun.heapPads
        /// Whether every process loads the bundle through the dynamic loader (``CountingProcess/loadsElsewhere``;
        /// tests count a body both ways).
        package var loadingElsewhere = false
        /// Earlier results of these tests (a timing run's, the other side's counts), to start the costliest first.
        ///
        /// ``CountingRun/longestFirst(_:costs:)`` orders them; the counts do not depend on the order.
        package var costs: [TestResult] = []

        /// A request with the usual jobs, heap shifts and placement.
        package init(bundle: String, directory: String, filter: String, countSamples: Int?, setup: Setup) {
            self.bundle = bundle
            self.directory = directory
            self.filter = filter
            self.countSamples = countSamples
            self.setup = setup
        }

        /// Whether every test gets its check or placement trial: the usual heap shifts (a test's own shifts count
        /// each process as asked, with no follow-up).
        var followsUpEveryTest: Bool { heapPads == CountingRun.heapPads }
    }
}
