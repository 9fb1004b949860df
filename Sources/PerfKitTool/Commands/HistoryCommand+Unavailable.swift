#if !History
import PerfKitCommandLine

/// `perfkit history` in a tool built without PerfKit's `History` trait (the default for packages that depend on
/// PerfKit).
///
/// One line saying what to install and how to turn it on.
enum HistoryCommand {
    /// The one line a user reads.
    static let unavailable =
        "perfkit history is not built into this perfkit: install its database clients (apt-get install libsqlite3-dev "
        + "libpq-dev pkg-config) and depend on PerfKit with traits: [\"Jemalloc\", \"History\"] (in PerfKit "
        + "itself: swift build --traits Jemalloc,History)"

    static func run(_ arguments: [String]) throws -> Int32 {
        _ = try Arguments(arguments, verb: "history")  // --help and bad options are answered as always
        throw UsageError(unavailable)
    }
}
#endif
