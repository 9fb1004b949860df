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

    static func parseDate(_ text: String, zone: TimeZone) -> Date? {
        let absolute = ISO8601DateFormatter()
        absolute.formatOptions = [.withInternetDateTime]
        if let date = absolute.date(from: text) { return date }
        let local = DateFormatter()
        local.locale = Locale(identifier: "en_US_POSIX")
        local.timeZone = zone
        for format in ["yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm"] {
            local.dateFormat = format
            if let date = local.date(from: text) { return date }
        }
        return nil
    }

    /// Reads and validates an events file; errors name the file and the event.
    static func read(_ path: String, timeZoneOverride: String?) throws -> (timeZone: TimeZone, events: [CalendarEvent]) {
        guard let data = FileManager.default.contents(atPath: path) else { throw FileError(path, "no such file or not readable") }
        let file: File
        do { file = try JSONDecoder().decode(File.self, from: data) } catch { throw FileError(path, "bad JSON: \(StoredFile.describe(error))") }
        let zoneName = timeZoneOverride ?? file.timeZone ?? "UTC"
        guard let zone = TimeZone(identifier: zoneName) else { throw FileError(path, "unknown time zone '\(zoneName)'") }
        guard let items = file.events else { throw FileError(path, "missing field 'events'") }
        var events: [CalendarEvent] = []
        for (n, item) in items.enumerated() {
            let name = "event \(n + 1)" + (item.id.map { " ('\($0)')" } ?? "")
            guard let id = item.id else { throw FileError(path, "\(name): missing field 'id'") }
            guard let startText = item.start else { throw FileError(path, "\(name): missing field 'start'") }
            guard let endText = item.end else { throw FileError(path, "\(name): missing field 'end'") }
            guard let start = parseDate(startText, zone: zone) else { throw FileError(path, "\(name): bad start '\(startText)'") }
            guard let end = parseDate(endText, zone: zone) else { throw FileError(path, "\(name): bad end '\(endText)'") }
            guard end >= start else { throw FileError(path, "\(name): end \(endText) is before start \(startText)") }
            events.append(
                CalendarEvent(
                    sourceID: id, calendarID: item.calendar ?? "default", title: item.title ?? id, start: start, end: end, isAllDay: item.allDay ?? false))
        }
        return (zone, events)
    }
}
