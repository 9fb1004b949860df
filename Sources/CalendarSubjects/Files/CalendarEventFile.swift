import Foundation
import PerfKit

/// The events JSON format of `calendar-demo calendar`: `{"timeZone": ..., "events": [{"id", "calendar", "title",
/// "start", "end", "allDay"}]}`.
///
/// A time without an offset is local to the time zone; one with `Z` or an offset is absolute. A local time repeated by
/// a daylight-saving change is the later instant; one skipped by a change is read with the offset before it, so it
/// moves forward by the gap (RFC 5545 §3.3.5).
package enum CalendarEventFile {
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

    /// Encodes events as an events file, times local to `timeZone`.
    /// - Parameters:
    ///   - events: The events.
    ///   - timeZone: The file's time zone.
    /// - Returns: The file's JSON.
    /// - Throws: An encoding error.
    package static func encode(_ events: [CalendarEvent], timeZone: TimeZone) throws -> Data {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        formatter.timeZone = timeZone
        formatter.locale = Locale(identifier: "en_US_POSIX")
        let items = events.map {
            Item(
                id: $0.sourceID, calendar: $0.calendarID, title: $0.title, start: formatter.string(from: $0.start),
                end: formatter.string(from: $0.end),
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
            self.zone = zone
            absolute.formatOptions = [.withInternetDateTime]
            local = ["yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm"].map { format in
                let formatter = DateFormatter()
                formatter.locale = Locale(identifier: "en_US_POSIX")
                formatter.timeZone = zone
                formatter.dateFormat = format
                return formatter
            }
        }
        let zone: TimeZone

        /// `yyyy-MM-ddTHH:mm[:ss]` read by hand: Foundation's formatters cost about 0.2 ms a date here (100,000 events
        /// took 37 s to parse).
        ///
        /// The wall time is turned into an instant with the zone's offset, found in two steps so a time near a
        /// daylight-saving change uses the offset in force at that instant. Anything else (out-of-range fields,
        /// offsets, `Z`) goes to the formatters.
        func fastLocal(_ text: String) -> Date? {
            let b = Array(text.utf8)
            guard b.count == 16 || b.count == 19, b[4] == 0x2D, b[7] == 0x2D, b[10] == 0x54, b[13] == 0x3A,
                b.count == 16 || b[16] == 0x3A
            else { return nil }
            func number(_ range: Range<Int>) -> Int? {
                var value = 0
                for i in range {
                    guard (0x30...0x39).contains(b[i]) else { return nil }
                    value = value * 10 + Int(b[i] - 0x30)
                }
                return value
            }
            guard let y = number(0..<4), let m = number(5..<7), let d = number(8..<10), let hh = number(11..<13),
                let mm = number(14..<16)
            else { return nil }
            let ss = b.count == 19 ? number(17..<19) : 0
            let monthDays = [
                31, (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31,
            ]
            guard let ss, (1...12).contains(m), (1...monthDays[m - 1]).contains(d), hh < 24, mm < 60, ss < 60 else {
                return nil
            }
            // Days from 1970-01-01 to y-m-d (Howard Hinnant's days_from_civil).
            let yy = m <= 2 ? y - 1 : y
            let era = (yy >= 0 ? yy : yy - 399) / 400
            let yoe = yy - era * 400
            let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
            let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
            let wall = Double((era * 146_097 + doe - 719_468) * 86_400 + hh * 3_600 + mm * 60 + ss)
            // The offsets a day either side bracket any change on this day; a candidate is valid when
            // the zone's offset at it is the one it assumed. In a repeated hour the later instant
            // wins, as Foundation's formatters choose. In a skipped hour neither is valid: the time is
            // read with the offset in force before the change, so it moves forward by the gap
            // (2015-03-29T02:22 in Europe/Berlin is 03:22 CEST), the rule of RFC 5545 §3.3.5.
            let offsets = [wall - 86_400, wall + 86_400].map {
                Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: $0)))
            }
            let candidates = offsets.map { wall - $0 }.filter {
                wall - Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: $0))) == $0
            }
            return Date(timeIntervalSince1970: candidates.max() ?? wall - offsets[0])
        }

        /// The date, or nil when `text` is in none of the accepted forms.
        func date(_ text: String) -> Date? {
            if let fast = fastLocal(text) { return fast }
            if text.hasSuffix("Z") || text.dropFirst(19).contains(where: { $0 == "+" || $0 == "-" }),
                let date = absolute.date(from: text)
            {
                return date
            }
            for formatter in local { if let date = formatter.date(from: text) { return date } }
            return absolute.date(from: text)
        }
    }

    /// Dates outside these years are refused: the layout works day by day, so an event of
    /// thousands of years is a mistake, not a calendar.
    static let earliest = Date(timeIntervalSince1970: -2_208_988_800)  // 1900-01-01T00:00:00Z
    static let latest = Date(timeIntervalSince1970: 7_258_118_400)  // 2200-01-01T00:00:00Z

    /// Parses one date of an events file (`YYYY-MM-DD`, `YYYY-MM-DDTHH:MM[:SS]`, with `Z` or an offset, or local to
    /// `zone`).
    /// - Parameters:
    ///   - text: The date.
    ///   - zone: The zone a local time is in.
    /// - Returns: The date, or nil when it cannot be parsed.
    package static func parseDate(_ text: String, zone: TimeZone) -> Date? { DateParser(zone: zone).date(text) }

    /// Reads and validates an events file; errors name the file and the event.
    /// - Parameters:
    ///   - path: The file.
    ///   - timeZoneOverride: A zone that replaces the file's own.
    /// - Returns: The zone and the events.
    /// - Throws: ``FileError`` naming the file and the event.
    package static func read(_ path: String, timeZoneOverride: String?) throws -> (
        timeZone: TimeZone, events: [CalendarEvent]
    ) {
        let data = try InputFile.read(path, limit: InputFile.textLimit)
        let file: File
        do { file = try JSONDecoder().decode(File.self, from: data) } catch {
            throw FileError(path, "bad JSON: \(StoredFile.describe(error))")
        }
        let zoneName = timeZoneOverride ?? file.timeZone ?? "UTC"
        guard let zone = TimeZone(identifier: zoneName) else {
            throw FileError(path, "unknown time zone '\(zoneName)'")
        }
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
                throw FileError(
                    path,
                    "\(name): \(startText) … \(endText) lies outside the years 1900 to 2199 that "
                        + "calendar layout accepts"
                )
            }
            guard end >= start else { throw FileError(path, "\(name): end \(endText) is before start \(startText)") }
            events.append(
                CalendarEvent(
                    sourceID: id, calendarID: item.calendar ?? "default", title: item.title ?? id, start: start,
                    end: end, isAllDay: item.allDay ?? false))
        }
        return (zone, events)
    }
}
