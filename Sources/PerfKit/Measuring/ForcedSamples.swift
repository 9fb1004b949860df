/// Samples forced from the command line, one figure per kind of run.
///
/// `--samples N` is a timing run's samples of each measured test, a total as a test's own `samples:`
/// is: a run over several processes splits it once, in each process (``RunConfiguration/share(of:processes:)``).
/// `--count-samples N` is a counting process's samples per arm and phase (default
/// ``SimulatedCounter/samplesPerArmAndPhase``): counts repeat, so a counting run needs few, and one
/// option never means both.
package struct ForcedSamples: Sendable, Equatable {
    /// Each measured test's samples in a timing run (`--samples`); nil keeps each test's own.
    package var timing: Int?
    /// Samples per arm and phase in a counting process (`--count-samples`); nil keeps the default.
    package var counting: Int?

    /// Nothing forced.
    package static let none = ForcedSamples()

    /// Forces `timing` samples on a timing run and `counting` on a counting run.
    /// - Parameters:
    ///   - timing: Each measured test's samples in a timing run.
    ///   - counting: Samples per arm and phase in a counting process.
    package init(timing: Int? = nil, counting: Int? = nil) {
        self.timing = timing
        self.counting = counting
    }
}
