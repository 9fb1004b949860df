import Foundation

/// The environment variables through which `perfkit` tells a measured test process what to do.
///
/// They are named once for the side that sets them (``TestBundleLauncher``, ``MeasuredRun``,
/// ``AbbaSession``) and the side that reads them (`PerformanceMode` in PerfKitTesting).
package enum MeasuredProcessEnvironment {
    /// `measure` selects measure mode; anything else is smoke mode.
    package static let mode = "PERFKIT_MODE"
    /// The value of ``mode`` for measure mode.
    package static let measureMode = "measure"
    /// The folder measured tests write their result fragments to.
    package static let resultsDirectory = "PERFKIT_RESULTS_DIR"
    /// Samples forced on every measured test of a timing run (`--samples`).
    ///
    /// A total, as a test's own `samples:` is: a run split over processes shares it
    /// (``RunConfiguration/share(of:processes:)``).
    package static let samples = "PERFKIT_SAMPLES"
    /// Samples forced per arm and phase of every test in a counting process (`--count-samples`).
    package static let countSamples = "PERFKIT_COUNT_SAMPLES"
    /// The older spelling of ``samples``, still read when ``samples`` is not set (deprecated).
    package static let deprecatedIterations = "PERFKIT_ITERATIONS"
    /// Fresh processes a run is split over (`perfkit run --processes N`).
    package static let processes = "PERFKIT_PROCESSES"
    /// This process's index among them, from 0.
    package static let processIndex = "PERFKIT_PROCESS_INDEX"
    /// Set to ``exactCountsElsewhere`` when another process of the session takes the exact counts.
    package static let exactCounts = "PERFKIT_EXACT_COUNTS"
    /// The value of ``exactCounts`` that skips the exact-count pass.
    package static let exactCountsElsewhere = "elsewhere"
    /// Set to `1` when a counting process also takes the exact allocation counts
    /// (``SimulatedCounter/countsAllocations``).
    package static let countAllocations = "PERFKIT_COUNT_ALLOCATIONS"
    /// Set to `1` in a counting run's placement trial.
    ///
    /// The process ends after the first round of its first measurement's first phase
    /// (``SimulatedCounter/isPlacementTrial``).
    package static let placementTrial = "PERFKIT_PLACEMENT_TRIAL"
}
