enum CalendarCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        throw UsageError("not implemented yet")
    }
}
