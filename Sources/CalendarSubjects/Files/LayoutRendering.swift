import Foundation
import PerfKit

/// JSON and SVG renderings of a calendar layout.
package enum LayoutRendering {
    struct JSONSegment: Encodable {
        var id: String, event: String
        var startMinute, endMinute: Double
        var lane, span, laneCount: Int
        var x, width: Double
        var continuesFromPreviousDay, continuesToNextDay: Bool
    }
    struct JSONOverflow: Encodable {
        var startMinute, endMinute: Double
        var count, lane, laneCount: Int
        var x, width: Double
        var events: [String]
    }
    struct JSONDay: Encodable {
        var date: String
        var segments: [JSONSegment]
        var allDay: [JSONSegment]
        /// "+N" chips; present only with a lane limit.
        var overflow: [JSONOverflow]?
    }
    struct JSONAxis: Encodable { var totalWidth: Double; var hourStarts: [Double]; var busyHours: [Int] }
    struct JSONLayout: Encodable { var timeZone: String; var axis: JSONAxis; var days: [JSONDay] }

    /// The layout as JSON: days, their timed and all-day segments with lanes and spans, and overflow chips.
    /// - Parameters:
    ///   - layout: The layout.
    ///   - events: The events it was made from.
    /// - Returns: Pretty-printed JSON with sorted keys.
    package static func json(_ layout: CalendarLayout, events: [CalendarEvent]) -> String {
        func segment(_ p: PlacedSegment) -> JSONSegment {
            JSONSegment(
                id: p.segment.id.description, event: events[p.segment.eventIndex].sourceID,
                startMinute: p.segment.startMinute, endMinute: p.segment.endMinute,
                lane: p.placement.lane, span: p.placement.span, laneCount: p.placement.laneCount, x: p.frame.x,
                width: p.frame.width,
                continuesFromPreviousDay: p.segment.continuesFromPreviousDay,
                continuesToNextDay: p.segment.continuesToNextDay)
        }
        let value = JSONLayout(
            timeZone: layout.grid.timeZone.identifier,
            axis: JSONAxis(
                totalWidth: layout.axis.totalWidth, hourStarts: layout.axis.hourStarts,
                busyHours: layout.axis.busyHours.indices.filter { layout.axis.busyHours[$0] }),
            days: layout.grid.days.indices.map { day in
                JSONDay(
                    date: layout.grid.days[day].key.description, segments: layout.days[day].map(segment),
                    allDay: layout.allDay[day].map(segment),
                    overflow: layout.hasLaneLimit ? layout.overflow[day].map { overflow($0, events) } : nil)
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        // Plain value types of strings and numbers: encoding cannot fail.
        return String(decoding: (try? encoder.encode(value)) ?? Data(), as: UTF8.self) + "\n"
    }

    static func overflow(_ chip: OverflowChip, _ events: [CalendarEvent]) -> JSONOverflow {
        JSONOverflow(
            startMinute: chip.group.startMinute, endMinute: chip.group.endMinute, count: chip.group.count,
            lane: chip.group.lane,
            laneCount: chip.group.laneCount, x: chip.frame.x, width: chip.frame.width,
            events: chip.group.segments.map { events[$0.eventIndex].sourceID })
    }

    /// Hairline rules, no cards or shadows.
    ///
    /// Pale tinted fills with a 2 pt edge bar; collapsed hours darker; one warm orange accent, reserved for today's
    /// label and the now line. The layout as an SVG picture.
    /// - Parameters:
    ///   - layout: The layout.
    ///   - events: The events it was made from.
    ///   - now: A time to mark with a line, if any.
    /// - Returns: The SVG document.
    package static func svg(_ layout: CalendarLayout, events: [CalendarEvent], now: Date? = nil) -> String {
        let accent = "#E8710A"
        let label = 80.0, width = layout.axis.totalWidth + label + 10, height = layout.contentHeight + 30
        var out = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" "
                + "font-family=\"sans-serif\" font-size=\"10\">",
            "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>",
        ]
        out += hourColumns(layout, label: label)
        out += dayRows(layout, label: label, width: width, now: now, accent: accent)
        out += placedFrames(layout, events: events, label: label)
        out.append("</svg>")
        return out.joined(separator: "\n") + "\n"
    }

    /// The collapsed hours' fills, the hour rules and the busy hours' labels.
    private static func hourColumns(_ layout: CalendarLayout, label: Double) -> [String] {
        var out: [String] = []
        for hour in 0..<24 where !layout.axis.busyHours[hour] {
            out.append(
                "<rect x=\"\(label + layout.axis.hourStarts[hour])\" y=\"20\" "
                    + "width=\"\(layout.axis.hourStarts[hour + 1] - layout.axis.hourStarts[hour])\" "
                    + "height=\"\(layout.contentHeight)\" fill=\"#f3f3f1\"/>"
            )
        }
        for hour in 0...24 {
            let x = label + layout.axis.hourStarts[hour]
            out.append(
                "<line x1=\"\(x)\" y1=\"20\" x2=\"\(x)\" y2=\"\(20 + layout.contentHeight)\" stroke=\"#d0d0d0\" "
                    + "stroke-width=\"0.5\"/>"
            )
            if hour < 24 && layout.axis.busyHours[hour] {
                out.append("<text x=\"\(x + 2)\" y=\"14\" fill=\"#666\">\(hour)</text>")
            }
        }
        return out
    }

    /// Each day's rule and label (today's in the accent), and the now line.
    private static func dayRows(_ layout: CalendarLayout, label: Double, width: Double, now: Date?, accent: String)
        -> [String]
    {
        var out: [String] = []
        for (i, day) in layout.grid.days.enumerated() {
            let y = 20 + layout.rowTops[i]
            out.append(
                "<line x1=\"0\" y1=\"\(y)\" x2=\"\(width)\" y2=\"\(y)\" stroke=\"#d0d0d0\" stroke-width=\"0.5\"/>")
            let isToday =
                now.map { $0.timeIntervalSince1970 >= day.start && $0.timeIntervalSince1970 < day.end } ?? false
            out.append(
                "<text x=\"4\" y=\"\(y + 14)\" "
                    + "fill=\"\(isToday ? accent : "#333")\"\(isToday ? " font-weight=\"bold\"" : "")>\(day.key)</text>"
            )
            if isToday, let now {
                let x = label + layout.axis.x(minute: layout.grid.wallMinute(now.timeIntervalSince1970, day: i))
                let bottom = i + 1 < layout.rowTops.count ? 20 + layout.rowTops[i + 1] : 20 + layout.contentHeight
                out.append(
                    "<line x1=\"\(x)\" y1=\"\(y)\" x2=\"\(x)\" y2=\"\(bottom)\" stroke=\"\(accent)\" "
                        + "stroke-width=\"1.5\"/>"
                )
            }
        }
        return out
    }

    /// The overflow chips, then each placed event: its tinted fill, edge bar and fitting title.
    private static func placedFrames(_ layout: CalendarLayout, events: [CalendarEvent], label: Double) -> [String] {
        var out: [String] = []
        for chip in layout.overflow.joined() {
            let f = chip.frame
            out.append(
                "<rect x=\"\(label + f.x)\" y=\"\(20 + f.y)\" width=\"\(f.width)\" height=\"\(f.height)\" "
                    + "fill=\"#8c8c8c\" fill-opacity=\"0.12\"/>"
            )
            out.append(
                "<text x=\"\(label + f.x + 4)\" y=\"\(20 + f.y + 11)\" fill=\"#444\">+\(chip.group.count)</text>")
        }
        for placed in layout.allPlaced {
            let event = events[placed.segment.eventIndex]
            let color = Workloads.color(ofCalendar: event.calendarID)
            let hex = String(format: "#%06X", color)
            let f = placed.frame
            out.append(
                "<rect x=\"\(label + f.x)\" y=\"\(20 + f.y)\" width=\"\(f.width)\" height=\"\(f.height)\" "
                    + "fill=\"\(hex)\" fill-opacity=\"0.16\"/>"
            )
            out.append(
                "<rect x=\"\(label + f.x)\" y=\"\(20 + f.y)\" width=\"2\" height=\"\(f.height)\" fill=\"\(hex)\"/>")
            // Titles are cut to the frame (about 6 pt per character at 10 pt), never drawn over a neighbour.
            let fitting = Int((f.width - 8) / 6)
            if fitting >= 2 {
                let title = event.title.count <= fitting ? event.title : String(event.title.prefix(fitting - 1)) + "…"
                out.append(
                    "<text x=\"\(label + f.x + 4)\" y=\"\(20 + f.y + 11)\" "
                        + "fill=\"#222\">\(SVGChart.escape(title))</text>"
                )
            }
        }
        return out
    }
}
