import PerfKitCommandLine

/// The `calendar-demo` verbs' options, each declared once.
extension Option {
    package static let baseline = Option("baseline", value: "NAME", help: "baseline to compare against (default main)")
    package static let collapsedHourWidth = Option(
        "collapsed-hour-width", value: "W", help: "layout: width of an empty hour")
    package static let days = Option("days", value: "N", help: "days of the workload or layout window")
    package static let events = Option("events", value: "FILE", help: "layout: the events file")
    package static let firstDay = Option("first-day", value: "DATE", help: "layout: first day (yyyy-MM-dd)")
    package static let journal = Option("journal", value: "FILE", help: "edit: the journal file")
    package static let kind = Option("kind", value: "varied|history", help: "fixture: which workload")
    package static let maxLanes = Option("max-lanes", value: "N", help: "layout: lane limit (+N chips beyond it)")
    package static let memoryRounds = Option(
        "memory-rounds", value: "N", help: "ABBA rounds of the process-memory measurement (default 8)")
    package static let moves = Option("moves", value: "N", help: "edit: moves to make")
    package static let noCounts = Option(
        flag: "no-counts", help: "skip the counting pass (simulated instructions under valgrind, about 5 minutes)")
    package static let now = Option("now", value: "DATE", help: "layout: the current time line")
    package static let saveBaseline = Option(flag: "save-baseline", help: "save this run as the baseline")
    package static let timeZone = Option("time-zone", value: "TZ", help: "time zone of local times")
    package static let width = Option("width", value: "W", help: "layout: track width")
}
