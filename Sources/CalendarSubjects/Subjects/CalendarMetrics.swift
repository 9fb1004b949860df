import Foundation
import PerfKit

/// The calendar subjects' own counters, with unit, polarity, kind and determinism.
package enum CalendarMetrics {
    /// Views alive after a run (memory).
    package static let liveViews = Metric("liveViews", unit: .count, kind: .memory, isDeterministic: true)
    /// Views created by a run.
    package static let viewsCreated = Metric("viewsCreated", unit: .count, isDeterministic: true)
    /// Views reused by a run (larger is better).
    package static let viewsReused = Metric(
        "viewsReused", unit: .count, polarity: .largerIsBetter, isDeterministic: true)
    /// Content closures evaluated by a run.
    package static let contentEvaluations = Metric("contentEvaluations", unit: .count, isDeterministic: true)
    /// Artwork bytes held by live leases after a run (memory).
    package static let consumerArtworkBytes = Metric(
        "consumerArtworkBytes", unit: .bytes, kind: .memory, isDeterministic: true)
    /// Artwork bytes the cache holds after a run (memory).
    package static let cachedArtworkBytes = Metric(
        "cachedArtworkBytes", unit: .bytes, kind: .memory, isDeterministic: true)
    /// Images rasterized by a run.
    package static let imagesPrepared = Metric("imagesPrepared", unit: .count, isDeterministic: true)
    /// Segments a layout placed (correctness).
    package static let segmentsLaidOut = Metric(
        "segmentsLaidOut", unit: .count, kind: .correctness, isDeterministic: true)
}

/// A prepared calendar workload: events, layout and descriptors, shared by the subjects' arms.
package struct CalendarScene: Sendable {
    /// The scene's events.
    package let events: [CalendarEvent]
    /// Their layout.
    package let layout: CalendarLayout
    /// The viewport index built from the layout.
    package let index: ViewportIndex
    /// A phone-sized viewport (390 × 844 pt) over the zoomed timeline.
    ///
    /// The timeline is a 1,000 pt track, so part
    /// of each day is off screen horizontally as well as most days vertically.
    package let viewportSize: (width: Double, height: Double)

    /// Lays out `days` days of the retained-history calendar events.
    package init(days: Int, seed: UInt64 = 42, presentation: Presentation = .timeline) {
        events = Workloads.historyEvents(days: days, seed: seed)
        layout = CalendarLayout(
            events: events, grid: DayGrid(timeZone: TimeZone(identifier: "UTC")!, from: Workloads.epoch, count: days),
            presentation: presentation)
        index = ViewportIndex(layout.descriptors(events: events))
        viewportSize = (390, 844)
    }

    /// The paint description for a descriptor (evaluates its content closure).
    package func paint(_ descriptor: ViewDescriptor) -> PaintDescription {
        paint(descriptor.content(), frame: descriptor.frame)
    }

    /// The paint description for content already evaluated, for example a bound cell's.
    package func paint(_ content: ViewContent, frame: Rect) -> PaintDescription {
        let color = Workloads.color(ofCalendar: content.calendarID)
        return PaintDescription(
            title: content.title, timeText: content.timeText, color: color,
            width: max(1, Int(frame.width.rounded())), height: max(1, Int(frame.height.rounded())))
    }
}
