import Observation

/// The observable state of a calendar screen: a playback clock next to the calendar state.
///
/// A class because Observation tracks reference types; it belongs to one thread (the screen's).
@Observable
package final class CalendarScreenModel {
    /// The media playback position in seconds, updated by the playback clock (10 Hz).
    package var playbackPosition: Double = 0
    /// The events the screen shows, one row per event view.
    package var events: [EventRow]
    /// The day shown in the header.
    package var selectedDay: DayKey

    /// One event view's state.
    package struct EventRow: Sendable, Hashable {
        /// The row's title.
        package var title: String
        /// The row's time text.
        package var timeText: String
        /// A row.
        package init(title: String, timeText: String) {
            self.title = title
            self.timeText = timeText
        }
    }

    /// A screen showing `events` on `selectedDay`.
    package init(events: [EventRow], selectedDay: DayKey) {
        self.events = events
        self.selectedDay = selectedDay
    }
}

/// Waits for the playback clock's next tick. Injectable, so tests need not wait ten seconds.
package protocol PlaybackTicker {
    /// Returns when the next tick is due.
    mutating func waitForNextTick(interval: Duration)
}

/// Real time: sleeps until the tick.
package struct SleepingTicker: PlaybackTicker {
    /// A ticker that sleeps for real.
    package init() {}
    /// Sleeps for `interval`.
    package mutating func waitForNextTick(interval: Duration) {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: interval)
        while clock.now < deadline {}  // a spin of 100 ms is precise and harmless in a probe
    }
}

/// Test time: returns at once and counts the ticks.
package struct ImmediateTicker: PlaybackTicker {
    /// Ticks so far.
    package private(set) var ticks = 0
    /// A ticker that never waits.
    package init() {}
    /// Counts the tick and returns at once.
    package mutating func waitForNextTick(interval: Duration) { ticks += 1 }
}
