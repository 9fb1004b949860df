import Foundation

/// The days of a loaded window in one time zone, for turning instants into days and minutes cheaply.
///
/// The days of a loaded window in one time zone, with what is needed to turn an instant into a
/// day and a wall-clock minute without calling `Calendar` per event.
///
/// Days around daylight-saving changes have 23 or 25 hours; wall-clock minutes stay in 0...1440.
package struct DayGrid: Sendable {
    /// One day of the window.
    package struct Day: Sendable {
        /// The day.
        package var key: DayKey
        /// Midnight, seconds since 1970.
        package var start: Double
        /// The next midnight.
        package var end: Double
        /// A UTC-offset change inside the day: the instant and the change in minutes.
        package var transition: (at: Double, minutes: Double)?
        /// Length of the day in hours (23, 24 or 25).
        package var hours: Double { (end - start) / 3600 }
    }

    /// The zone the days are in.
    package let timeZone: TimeZone
    /// The days, in order.
    package let days: [Day]

    /// Builds the grid of `count` days starting on the day that contains `first`.
    package init(timeZone: TimeZone, from first: Date, count: Int) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.timeZone = timeZone
        var days: [Day] = []
        var midnight = calendar.startOfDay(for: first)
        for _ in 0..<max(count, 0) {
            let next = calendar.date(byAdding: .day, value: 1, to: midnight)!
            let parts = calendar.dateComponents([.year, .month, .day], from: midnight)
            var day = Day(
                key: DayKey(year: parts.year!, month: parts.month!, day: parts.day!),
                start: midnight.timeIntervalSince1970, end: next.timeIntervalSince1970, transition: nil)
            if let change = timeZone.nextDaylightSavingTimeTransition(after: midnight), change < next {
                let before = timeZone.secondsFromGMT(for: midnight)
                let after = timeZone.secondsFromGMT(for: change)
                day.transition = (change.timeIntervalSince1970, Double(after - before) / 60)
            }
            days.append(day)
            midnight = next
        }
        self.days = days
    }

    /// The index of the day containing instant `t`, or `nil` outside the window.
    /// - Complexity: O(log days).
    package func dayIndex(containing t: Double) -> Int? {
        guard let first = days.first, let last = days.last, t >= first.start, t < last.end else { return nil }
        var low = 0, high = days.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if days[mid].start <= t { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// The wall-clock minute of instant `t` within day `index` (1440 at the next midnight).
    package func wallMinute(_ t: Double, day index: Int) -> Double {
        let day = days[index]
        if t >= day.end { return 1440 }
        var minutes = (t - day.start) / 60
        if let transition = day.transition, t >= transition.at { minutes += transition.minutes }
        return min(max(minutes, 0), 1440)
    }
}
