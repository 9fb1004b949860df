/// `perfkit abba`: planned (issue 5), not in this version.
enum AbbaCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        throw UsageError("'abba' is not implemented in this version; compare two runs with 'perfkit compare' (see README)")
    }
}
