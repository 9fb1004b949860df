import Foundation
import PerfKit

/// Seeded, deterministic calendar workloads: stress fixtures rather than typical usage.
package enum Workloads {
    /// The fixture's calendars and their colours (RGB).
    package static let calendars: [(id: String, color: UInt32)] = [
        ("work", 0x1F6FEB), ("home", 0x2DA44E), ("family", 0xBF3989), ("gym", 0xD1242F), ("travel", 0x8250DF),
        ("school", 0x0969DA),
        ("team", 0x1A7F37), ("oncall", 0xCF222E), ("birthdays", 0xBC4C00), ("holidays", 0x9A6700), ("music", 0x6639BA),
        ("health", 0x116329),
    ]

    /// The colour of a calendar (0xRRGGBB); grey for a calendar the fixture does not know.
    /// - Complexity: O(1); it is looked up for every bound cell in a scroll step.
    package static func color(ofCalendar id: String) -> UInt32 { colors[id] ?? 0x888888 }

    private static let colors: [String: UInt32] = Dictionary(uniqueKeysWithValues: calendars.map { ($0.id, $0.color) })

    /// The reference start of every fixture: Monday 2015-03-02, 00:00 UTC (a month with a DST change in many zones).
    package static let epoch = Date(timeIntervalSince1970: 1_425_254_400)

    static let titles = [
        "Standup", "Design review", "1:1", "Lunch", "Focus", "Planning", "Retro", "Gym", "School run", "Dentist",
        "Flight", "Dinner", "Call with Sam", "Interview", "Workshop", "Piano", "Yoga", "Release", "Sync", "Demo",
    ]

    /// 100 calendar events per day for `days` days (the retained-history workload's calendar part).
    package static func historyEvents(days: Int, seed: UInt64, timeZone: TimeZone = TimeZone(identifier: "UTC")!)
        -> [CalendarEvent]
    {
        var generator = SeededGenerator(seed: seed)
        var events: [CalendarEvent] = []
        events.reserveCapacity(days * 100)
        for day in 0..<days {
            let midnight = epoch.timeIntervalSince1970 + Double(day) * 86_400
            for k in 0..<100 {
                let startMinute = Double(6 * 60 + generator.index(below: 15 * 60))
                let length = Double([15, 30, 30, 45, 60, 60, 90, 120][generator.index(below: 8)])
                let calendar = calendars[generator.index(below: calendars.count)]
                events.append(
                    CalendarEvent(
                        sourceID: "h\(day)-\(k)", calendarID: calendar.id,
                        title: titles[generator.index(below: titles.count)],
                        start: Date(timeIntervalSince1970: midnight + startMinute * 60),
                        end: Date(timeIntervalSince1970: midnight + (startMinute + length) * 60)))
            }
        }
        return events
    }

    /// A varied fixture cycling through 30 daily patterns.
    ///
    /// Dense overlaps, long, overnight and all-day events, events clipped at the day edge, empty days, touching and
    /// zero-length events. Use a time zone with daylight saving (for example `Europe/Berlin`) to include DST days.
    package static func variedEvents(
        days: Int, seed: UInt64, timeZone: TimeZone = TimeZone(identifier: "Europe/Berlin")!
    ) -> [CalendarEvent] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var fixture = VariedFixture(generator: SeededGenerator(seed: seed), calendar: calendar)
        let first = calendar.startOfDay(for: epoch)
        for d in 0..<days {
            let day = calendar.date(byAdding: .day, value: d, to: first)!
            fixture.addDay(day, pattern: (d + Int(seed % 30)) % 30, tag: "v\(d)")
        }
        return fixture.events
    }
}

/// The varied fixture's events as they are made, and the generator that picks them.
private struct VariedFixture {
    var generator: SeededGenerator
    let calendar: Calendar
    var events: [CalendarEvent] = []

    /// Appends an event `minutes` long from `startMinute` of `day` (whole days when `allDay`).
    mutating func add(_ day: Date, _ id: String, _ startMinute: Int, _ minutes: Int, allDay: Bool = false) {
        let cal = Workloads.calendars[generator.index(below: Workloads.calendars.count)]
        let start = calendar.date(byAdding: .minute, value: startMinute, to: day)!
        let end =
            allDay
            ? calendar.date(byAdding: .day, value: max(1, minutes / 1440), to: day)!
            : start.addingTimeInterval(Double(minutes) * 60)
        let title = Workloads.titles[generator.index(below: Workloads.titles.count)]
        events.append(
            CalendarEvent(sourceID: id, calendarID: cal.id, title: title, start: start, end: end, isAllDay: allDay))
    }

    /// Appends a random start and length: `base` plus up to `spread` minutes, `minimum` plus up to `extra` long.
    mutating func addRandom(_ day: Date, _ id: String, base: Int, spread: Int, minimum: Int, extra: Int) {
        let start = base + generator.index(below: spread)
        let minutes = minimum + generator.index(below: extra)
        add(day, id, start, minutes)
    }

    /// Appends the events of one of the ten day patterns (`pattern % 10`).
    mutating func addDay(_ day: Date, pattern: Int, tag: String) {
        switch pattern % 10 {
        case 0: break  // empty day
        case 1:  // dense overlaps
            for k in 0..<(12 + generator.index(below: 10)) {
                addRandom(day, "\(tag)-d\(k)", base: 9 * 60, spread: 120, minimum: 30, extra: 90)
            }
        case 2:  // long events
            add(day, "\(tag)-long", 8 * 60, 10 * 60)
            for k in 0..<4 { add(day, "\(tag)-l\(k)", 9 * 60 + k * 120, 60) }
        case 3:  // overnight
            add(day, "\(tag)-night", 22 * 60, 5 * 60)
            add(day, "\(tag)-eve", 20 * 60, 90)
        case 4:  // all-day and multi-day all-day
            add(day, "\(tag)-ad", 0, 1440, allDay: true)
            add(day, "\(tag)-ad3", 0, 3 * 1440, allDay: true)
            add(day, "\(tag)-m", 13 * 60, 45)
        case 5:  // clipped at the day edge, ending exactly at midnight
            add(day, "\(tag)-edge", 23 * 60, 60)
            add(day, "\(tag)-early", 0, 30)
        case 6:  // touching events and a zero-length one
            for k in 0..<5 { add(day, "\(tag)-t\(k)", 10 * 60 + k * 30, 30) }
            add(day, "\(tag)-zero", 15 * 60, 0)
        case 7:  // sparse random
            for k in 0..<(1 + generator.index(below: 4)) {
                addRandom(day, "\(tag)-s\(k)", base: 0, spread: 23 * 60, minimum: 15, extra: 120)
            }
        case 8:  // a busy working day
            for k in 0..<20 {
                let start = 8 * 60 + generator.index(below: 9 * 60)
                let minutes = 15 * (1 + generator.index(below: 6))
                add(day, "\(tag)-w\(k)", start, minutes)
            }
        default:  // early-morning cluster crossing the DST hour (02:00–03:00)
            for k in 0..<4 { add(day, "\(tag)-dst\(k)", 60 + k * 30, 90) }
        }
    }
}
