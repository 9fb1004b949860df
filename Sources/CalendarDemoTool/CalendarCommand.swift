import CalendarSubjects
import Foundation
import PerfKit
import PerfKitCommandLine

/// `calendar-demo calendar fixture|layout|memory`.
enum CalendarCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        if arguments.first == "--help" || arguments.first == "-h", let verb = VerbTable.calendarDemo.named("calendar") {
            throw HelpRequested(verb: verb)
        }
        guard let action = arguments.first else {
            throw UsageError("usage: calendar-demo calendar fixture|layout|memory|history|edit ...")
        }
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
        let kind = try parsed.choice(.kind, ["varied", "history"], default: "varied")
        let days = try parsed.integer(.days, default: 30, range: 1...3650)
        let seed = UInt64(try parsed.integer(.seed, default: 42, range: 0...Int.max))
        let zoneName = parsed[.timeZone] ?? (kind == "varied" ? "Europe/Berlin" : "UTC")
        guard let zone = TimeZone(identifier: zoneName) else { throw UsageError("unknown time zone '\(zoneName)'") }
        let events =
            kind == "varied"
            ? Workloads.variedEvents(days: days, seed: seed, timeZone: zone)
            : Workloads.historyEvents(days: days, seed: seed, timeZone: zone)
        try Output.write(
            String(decoding: try CalendarEventFile.encode(events, timeZone: zone), as: UTF8.self), to: parsed[.output])
        return 0
    }

    static func layout(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, verb: "calendar")
        let path = try parsed.required(.events, for: "layout")
        let format = try parsed.choice(.format, ["json", "svg"], default: "json")
        let file = try CalendarEventFile.read(path, timeZoneOverride: parsed[.timeZone])
        var metrics = LayoutMetrics()
        metrics.trackWidth = try parsed.double(.width, default: 1_000)
        metrics.collapsedHourWidth = try parsed.double(.collapsedHourWidth, default: 12)
        if parsed[.maxLanes] != nil { metrics.maxLanes = try parsed.integer(.maxLanes, default: 4, range: 2...100) }
        guard metrics.trackWidth > 0 else { throw UsageError("--width must be positive") }
        let days = try parsed[.days].map { _ in
            try parsed.integer(.days, default: 1, range: 1...LayoutWindow.maximumDays)
        }
        let grid = try LayoutWindow.grid(
            events: file.events, timeZone: file.timeZone, firstDay: parsed[.firstDay], days: days, path: path)
        let layout = CalendarLayout(events: file.events, grid: grid, metrics: metrics)
        let now = try LayoutWindow.now(parsed[.now], timeZone: file.timeZone)
        let text =
            format == "json"
            ? LayoutRendering.json(layout, events: file.events)
            : LayoutRendering.svg(layout, events: file.events, now: now)
        try Output.write(text, to: parsed[.output])
        return 0
    }

    /// Child process of the demo's retained-history section: prints its figures as JSON.
    static func history(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, verb: "calendar")
        let days = try parsed.integer(.days, default: 90, range: 1...365)
        let seed = UInt64(try parsed.integer(.seed, default: 42, range: 0...Int.max))
        Output.line(
            String(
                decoding: try StoredFile.encoder().encode(CalendarDemo.historyFigures(days: days, seed: seed)),
                as: UTF8.self))
        return 0
    }

    /// Child process of the demo's memory measurement: one policy's memory figures as JSON.
    static func memory(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, verb: "calendar")
        let policy: ViewportPolicy =
            try parsed.choice(.policy, ["reference", "native"], default: "native") == "reference" ? .reference : .native
        let days = try parsed.integer(.days, default: 30, range: 1...365)
        let values = CalendarDemo.policyMemoryFigures(policy: policy, days: days)
        Output.line(String(decoding: try StoredFile.encoder().encode(values), as: UTF8.self))
        return 0
    }

    /// Moves one event `--moves` times through an edit session over `--journal`.
    ///
    /// The session has a provider
    /// that accepts every move, printing each operation once its confirmation is durable. The
    /// journal's kill test reads these lines: every printed operation must survive a SIGKILL.
    static func edit(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, verb: "calendar")
        let path = try parsed.required(.journal, for: "edit")
        let moves = try parsed.integer(.moves, default: 1, range: 1...1_000_000)
        try EditSession.moveRepeatedly(journal: path, moves: moves) { Output.line("\($0)") }
        return 0
    }
}
