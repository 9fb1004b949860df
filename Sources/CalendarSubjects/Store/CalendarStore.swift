import Foundation

/// Owns the loaded day range of a calendar and expands it lazily.
///
/// The compressed axis belongs to the loaded window: it does not shift while scrolling inside
/// it and is recomputed only when the window grows.
package struct CalendarStore: Sendable {
    /// Every loaded event.
    package let events: [CalendarEvent]
    /// The zone days are split in.
    package let timeZone: TimeZone
    /// Days added on each side when the window must grow.
    package let chunkDays: Int
    /// Timeline or week.
    package let presentation: Presentation
    /// Sizes the layout uses.
    package let metrics: LayoutMetrics
    /// The current layout of the loaded window.
    package private(set) var layout: CalendarLayout
    /// How many times the window was (re)computed.
    package private(set) var layoutGeneration = 1
    private var firstDay: Date

    /// Creates a store whose window is `chunkDays` days on each side of `date`.
    package init(
        events: [CalendarEvent], timeZone: TimeZone, around date: Date, chunkDays: Int = 7,
        presentation: Presentation = .timeline, metrics: LayoutMetrics = LayoutMetrics()
    ) {
        self.events = events
        self.timeZone = timeZone
        self.chunkDays = chunkDays
        self.presentation = presentation
        self.metrics = metrics
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        firstDay = calendar.date(byAdding: .day, value: -chunkDays, to: calendar.startOfDay(for: date))!
        layout = CalendarLayout(
            events: events, grid: DayGrid(timeZone: timeZone, from: firstDay, count: 2 * chunkDays + 1),
            presentation: presentation, metrics: metrics)
    }

    /// The loaded days.
    package var loadedDays: [DayKey] { layout.grid.days.map(\.key) }

    /// Makes sure the day containing `date` is loaded, growing the window by whole chunks.
    /// - Returns: `true` when the window grew (and the axis was recomputed).
    @discardableResult
    package mutating func ensureLoaded(around date: Date) -> Bool {
        let t = date.timeIntervalSince1970
        let grid = layout.grid
        guard let first = grid.days.first, let last = grid.days.last else { return false }
        if t >= first.start && t < last.end { return false }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var count = grid.days.count
        while t < firstDay.timeIntervalSince1970 {
            firstDay = calendar.date(byAdding: .day, value: -chunkDays, to: firstDay)!
            count += chunkDays
        }
        var end = calendar.date(byAdding: .day, value: count, to: firstDay)!
        while t >= end.timeIntervalSince1970 {
            count += chunkDays
            end = calendar.date(byAdding: .day, value: count, to: firstDay)!
        }
        layout = CalendarLayout(
            events: events, grid: DayGrid(timeZone: timeZone, from: firstDay, count: count), presentation: presentation,
            metrics: metrics)
        layoutGeneration += 1
        return true
    }

    /// Month-bar coverage: the months loaded, and the month of the top visible day.
    /// - Parameter topVisibleDay: Index of the day row at the top of the viewport.
    /// - Returns: The loaded months' names, and the current month's.
    package func monthCoverage(topVisibleDay: Int) -> (loaded: [String], current: String) {
        var months: [String] = []
        for key in loadedDays where months.last != key.monthKey { months.append(key.monthKey) }
        let index = min(max(topVisibleDay, 0), loadedDays.count - 1)
        return (months, loadedDays[index].monthKey)
    }
}
