import Observation

/// The observable state of a calendar screen: a playback clock next to the calendar state.
///
/// A class because Observation tracks reference types; it belongs to one thread (the screen's).
@Observable
public final class CalendarScreenModel {
    /// The media playback position in seconds, updated by the playback clock (10 Hz).
    public var playbackPosition: Double = 0
    /// The events the screen shows, one row per event view.
    public var events: [EventRow]
    /// The day shown in the header.
    public var selectedDay: DayKey

    /// One event view's state.
    public struct EventRow: Sendable, Hashable {
        /// The row's title.
        public var title: String
        /// The row's time text.
        public var timeText: String
        /// A row.
        public init(title: String, timeText: String) {
            self.title = title
            self.timeText = timeText
        }
    }

    /// A screen showing `events` on `selectedDay`.
    public init(events: [EventRow], selectedDay: DayKey) {
        self.events = events
        self.selectedDay = selectedDay
    }
}

/// Waits for the playback clock's next tick. Injectable, so tests need not wait ten seconds.
public protocol PlaybackTicker {
    /// Returns when the next tick is due.
    mutating func waitForNextTick(interval: Duration)
}

/// Real time: sleeps until the tick.
public struct SleepingTicker: PlaybackTicker {
    /// A ticker that sleeps for real.
    public init() {}
    /// Sleeps for `interval`.
    public mutating func waitForNextTick(interval: Duration) {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: interval)
        while clock.now < deadline {}  // a spin of 100 ms is precise and harmless in a probe
    }
}

/// Test time: returns at once and counts the ticks.
public struct ImmediateTicker: PlaybackTicker {
    /// Ticks so far.
    public private(set) var ticks = 0
    /// A ticker that never waits.
    public init() {}
    /// Counts the tick and returns at once.
    public mutating func waitForNextTick(interval: Duration) { ticks += 1 }
}
