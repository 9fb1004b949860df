import CalendarSubjects
import Foundation
import PerfKit

/// `perfkit calendar fixture|layout|memory`.
enum CalendarCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        if arguments.first == "--help" || arguments.first == "-h", let verb = Verb.named("calendar") { throw HelpRequested(verb: verb) }
        guard let action = arguments.first else { throw UsageError("usage: perfkit calendar fixture|layout|memory|history|edit ...") }
        let rest = Array(arguments.dropFirst())
        switch action {
        case "fixture": return try fixture(rest)
        case "layout": return try layout(rest)
        case "memory": return try memory(rest)
        case "history": return try history(rest)
        case "edit": return try edit(rest)
        default: throw UsageError("unknown calendar action '\(action)' (fixture, layout, memory, history, edit)")
        }
    }

    static func fixture(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, verb: "calendar")
        let kind = try parsed.choice("kind", ["varied", "history"], default: "varied")
        let days = try parsed.integer("days", default: 30, range: 1...3650)
        let seed = UInt64(try parsed.integer("seed", default: 42, range: 0...Int.max))
        let zoneName = parsed.options["time-zone"] ?? (kind == "varied" ? "Europe/Berlin" : "UTC")
        guard let zone = TimeZone(identifier: zoneName) else { throw UsageError("unknown time zone '\(zoneName)'") }
        let events =
            kind == "varied" ? Workloads.variedEvents(days: days, seed: seed, timeZone: zone) : Workloads.historyEvents(days: days, seed: seed, timeZone: zone)
        try Output.write(String(decoding: try CalendarEventFile.encode(events, timeZone: zone), as: UTF8.self), to: parsed.options["output"])
        return 0
    }

    static func layout(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, verb: "calendar")
        guard let path = parsed.options["events"] else {
            throw UsageError(
                "usage: perfkit calendar layout --events FILE [--time-zone TZ] [--first-day DATE --days N] [--width W] [--collapsed-hour-width W] [--max-lanes N] [--format json|svg] [--now DATE] [--output FILE]"
            )
        }
        let format = try parsed.choice("format", ["json", "svg"], default: "json")
        let file = try CalendarEventFile.read(path, timeZoneOverride: parsed.options["time-zone"])
        var metrics = LayoutMetrics()
        metrics.trackWidth = try parsed.double("width", default: 1_000)
        metrics.collapsedHourWidth = try parsed.double("collapsed-hour-width", default: 12)
        if parsed.options["max-lanes"] != nil { metrics.maxLanes = try parsed.integer("max-lanes", default: 4, range: 2...100) }
        guard metrics.trackWidth > 0 else { throw UsageError("--width must be positive") }
        let first: Date
        if let from = parsed.options["first-day"] {
            guard let date = CalendarEventFile.parseDate(from + (from.count == 10 ? "T00:00:00" : ""), zone: file.timeZone) else {
                throw UsageError("--first-day: '\(from)' is not a date (yyyy-MM-dd)")
            }
            first = date
        } else {
            first = file.events.map(\.start).min() ?? Workloads.epoch
        }
        let days: Int
        if parsed.options["days"] != nil {
            days = try parsed.integer("days", default: 1, range: 1...3650)
        } else {
            let last = file.events.map(\.end).max() ?? first
            days = max(1, Int((last.timeIntervalSince(first) / 86_400).rounded(.up)) + 1)
            guard days <= 3650 else {
                throw FileError(path, "events span \(days) days; lay out a window of at most 3650 with --first-day DATE --days N (longer events are clipped to it)")
            }
        }
        let layout = CalendarLayout(events: file.events, grid: DayGrid(timeZone: file.timeZone, from: first, count: days), metrics: metrics)
        var now: Date?
        if let text = parsed.options["now"] {
            guard let date = CalendarEventFile.parseDate(text, zone: file.timeZone) else {
                throw UsageError("--now: '\(text)' is not a date-time (yyyy-MM-ddTHH:mm)")
            }
            now = date
        }
        let text = format == "json" ? LayoutRendering.json(layout, events: file.events) : LayoutRendering.svg(layout, events: file.events, now: now)
        try Output.write(text, to: parsed.options["output"])
        return 0
    }

    /// Child process of the demo's retained-history section: prints its figures as JSON.
    static func history(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, verb: "calendar")
        let days = try parsed.integer("days", default: 90, range: 1...365)
        let seed = UInt64(try parsed.integer("seed", default: 42, range: 0...Int.max))
        Output.line(String(decoding: try StoredFile.encoder().encode(CalendarDemo.historyFigures(days: days, seed: seed)), as: UTF8.self))
        return 0
    }

    /// Child process of the demo's memory measurement: one policy's memory figures as JSON.
    static func memory(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, verb: "calendar")
        let policy: ViewportPolicy = try parsed.choice("policy", ["reference", "native"], default: "native") == "reference" ? .reference : .native
        let days = try parsed.integer("days", default: 30, range: 1...365)
        let values = CalendarDemo.policyMemoryFigures(policy: policy, days: days)
        Output.line(String(decoding: try StoredFile.encoder().encode(values), as: UTF8.self))
        return 0
    }

    /// Moves one event `--moves` times through an edit session over `--journal`, with a provider
    /// that accepts every move, printing each operation once its confirmation is durable. The
    /// journal's kill test reads these lines: every printed operation must survive a SIGKILL.
    static func edit(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, verb: "calendar")
        guard let path = parsed.options["journal"] else { throw UsageError("usage: perfkit calendar edit --journal FILE [--moves N]") }
        let moves = try parsed.integer("moves", default: 1, range: 1...1_000_000)
        let event = CalendarEvent(
            sourceID: "event", calendarID: "journal", title: "Event", start: Workloads.epoch, end: Workloads.epoch.addingTimeInterval(1_800))
        var session = EditSession(events: [event], journal: try EditJournal(path: path))
        var provider = AcceptingProvider()
        for k in 0..<moves {
            let move = try session.move("event", to: Workloads.epoch.timeIntervalSince1970 + Double(k) * 60)
            try session.submit(move, to: &provider)
            Output.line("\(move.operation)")
        }
        return 0
    }

    /// A provider that accepts every move.
    struct AcceptingProvider: EditProvider {
        mutating func submit(_ move: PendingMove) -> Bool { true }
    }
}
