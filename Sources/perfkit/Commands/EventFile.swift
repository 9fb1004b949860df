import CalendarSubjects
import Foundation
import PerfKit

/// The events JSON format of `perfkit calendar`: `{"timeZone": ..., "events": [{"id", "calendar", "title", "start", "end", "allDay"}]}`.
/// A time without an offset is local to the time zone; one with `Z` or an offset is absolute.
enum EventFile {
    struct Item: Codable {
        var id: String?
        var calendar: String?
        var title: String?
        var start: String?
        var end: String?
        var allDay: Bool?
    }
    struct File: Codable {
        var timeZone: String?
        var events: [Item]?
    }

    static func encode(_ events: [CalendarEvent], timeZone: TimeZone) throws -> Data {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        formatter.timeZone = timeZone
        formatter.locale = Locale(identifier: "en_US_POSIX")
        let items = events.map {
            Item(
                id: $0.sourceID, calendar: $0.calendarID, title: $0.title, start: formatter.string(from: $0.start), end: formatter.string(from: $0.end),
                allDay: $0.isAllDay)
        }
        return try StoredFile.encoder().encode(File(timeZone: timeZone.identifier, events: items)) + Data("\n".utf8)
    }

    /// Parses dates of one time zone with formatters made once (making them per date cost ~0.8 ms
    /// an event). Not `Sendable`: one parser per read.
    struct DateParser {
        private let absolute = ISO8601DateFormatter()
        private let local: [DateFormatter]
        /// Creates a parser for times without an offset in `zone`.
        init(zone: TimeZone) {
            absolute.formatOptions = [.withInternetDateTime]
            local = ["yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm"].map { format in
                let formatter = DateFormatter()
                formatter.locale = Locale(identifier: "en_US_POSIX")
                formatter.timeZone = zone
                formatter.dateFormat = format
                return formatter
            }
        }
        /// The date, or nil when `text` is in none of the accepted forms.
        func date(_ text: String) -> Date? {
            if text.hasSuffix("Z") || text.dropFirst(19).contains(where: { $0 == "+" || $0 == "-" }), let date = absolute.date(from: text) { return date }
            for formatter in local { if let date = formatter.date(from: text) { return date } }
            return absolute.date(from: text)
        }
    }

    /// Dates outside these years are refused: the layout works day by day, so an event of
    /// thousands of years is a mistake, not a calendar.
    static let earliest = Date(timeIntervalSince1970: -2_208_988_800)  // 1900-01-01T00:00:00Z
    static let latest = Date(timeIntervalSince1970: 7_258_118_400)  // 2200-01-01T00:00:00Z

    static func parseDate(_ text: String, zone: TimeZone) -> Date? { DateParser(zone: zone).date(text) }

    /// Reads and validates an events file; errors name the file and the event.
    static func read(_ path: String, timeZoneOverride: String?) throws -> (timeZone: TimeZone, events: [CalendarEvent]) {
        guard let data = FileManager.default.contents(atPath: path) else { throw FileError(path, "no such file or not readable") }
        let file: File
        do { file = try JSONDecoder().decode(File.self, from: data) } catch { throw FileError(path, "bad JSON: \(StoredFile.describe(error))") }
        let zoneName = timeZoneOverride ?? file.timeZone ?? "UTC"
        guard let zone = TimeZone(identifier: zoneName) else { throw FileError(path, "unknown time zone '\(zoneName)'") }
        guard let items = file.events else { throw FileError(path, "missing field 'events'") }
        var events: [CalendarEvent] = []
        events.reserveCapacity(items.count)
        let parser = DateParser(zone: zone)
        for (n, item) in items.enumerated() {
            let name = "event \(n + 1)" + (item.id.map { " ('\($0)')" } ?? "")
            guard let id = item.id else { throw FileError(path, "\(name): missing field 'id'") }
            guard let startText = item.start else { throw FileError(path, "\(name): missing field 'start'") }
            guard let endText = item.end else { throw FileError(path, "\(name): missing field 'end'") }
            guard let start = parser.date(startText) else { throw FileError(path, "\(name): bad start '\(startText)'") }
            guard let end = parser.date(endText) else { throw FileError(path, "\(name): bad end '\(endText)'") }
            guard start >= earliest, end <= latest else {
                throw FileError(path, "\(name): \(startText) … \(endText) lies outside the years 1900 to 2199 that calendar layout accepts")
            }
            guard end >= start else { throw FileError(path, "\(name): end \(endText) is before start \(startText)") }
            events.append(
                CalendarEvent(
                    sourceID: id, calendarID: item.calendar ?? "default", title: item.title ?? id, start: start, end: end, isAllDay: item.allDay ?? false))
        }
        return (zone, events)
    }
}
