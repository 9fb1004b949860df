/// `perfkit calibrate`: planned (issue 5), not in this version.
enum CalibrateCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        throw UsageError("'calibrate' is not implemented in this version; compare two runs with 'perfkit compare' (see README)")
    }
}
