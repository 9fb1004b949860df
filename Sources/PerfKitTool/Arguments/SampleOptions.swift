import PerfKit
import PerfKitCommandLine

/// The rule that keeps `--samples` and `--count-samples` to one meaning each.
///
/// `--samples` sets a timing run's samples, `--count-samples` a counting run's; one given to a command that takes
/// no run of its kind is refused rather than silently ignored or read as the other.
enum SampleOptions {
    /// Refuses a forced sample count for a kind of run the command does not take.
    /// - Parameters:
    ///   - samples: What the command line forced.
    ///   - timing: Whether the command takes a timing run.
    ///   - counting: Whether it takes a counting run.
    ///   - verb: The verb, for the message.
    /// - Throws: ``UsageError`` naming the option to use instead.
    static func check(_ samples: ForcedSamples, timing: Bool, counting: Bool, verb: String) throws {
        if samples.timing != nil && !timing {
            throw UsageError(
                "--samples sets a timing run's samples and this \(verb) only counts: "
                    + "use --count-samples N for the counting run's samples per arm and phase")
        }
        if samples.counting != nil && !counting {
            throw UsageError(
                "--count-samples sets a counting run's samples and this \(verb) takes none: "
                    + "add --counts, or use --samples N for the timing run")
        }
    }
}
