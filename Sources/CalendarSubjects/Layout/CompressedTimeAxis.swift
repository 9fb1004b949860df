/// A horizontal 24-hour axis on which empty hours collapse to a thin strip.
///
/// A horizontal 24-hour axis on which hours with no event anywhere in the loaded window
/// collapse to a thin strip and busy hours share the rest of the width equally.
///
/// Invariants: x(0) = 0, x(1440) = total width, strictly increasing, continuous at every hour.
package struct CompressedTimeAxis: Sendable, Equatable {
    /// Total track width in points.
    package let totalWidth: Double
    /// Width of a collapsed hour.
    package let collapsedHourWidth: Double
    /// Whether each hour is busy.
    package let busyHours: [Bool]
    /// x of each hour start, 25 values (the last is the total width).
    package let hourStarts: [Double]

    /// Builds the axis from the busy hours of a window.
    /// - Parameters:
    ///   - busyHours: 24 flags; if none is busy, hours are uniform.
    ///   - totalWidth: Track width in points.
    ///   - collapsedHourWidth: Width of an empty hour (clamped so busy hours stay wider).
    package init(busyHours: [Bool], totalWidth: Double, collapsedHourWidth: Double) {
        precondition(busyHours.count == 24 && totalWidth > 0)
        self.totalWidth = totalWidth
        self.busyHours = busyHours
        let busy = busyHours.filter { $0 }.count
        let collapsed = min(max(collapsedHourWidth, 0.5), totalWidth / 24)
        self.collapsedHourWidth = collapsed
        var widths = [Double](repeating: totalWidth / 24, count: 24)
        if busy > 0 && busy < 24 {
            let busyWidth = (totalWidth - collapsed * Double(24 - busy)) / Double(busy)
            widths = busyHours.map { $0 ? busyWidth : collapsed }
        }
        var starts = [0.0]
        for w in widths { starts.append(starts.last! + w) }
        starts[24] = totalWidth
        hourStarts = starts
    }

    /// Busy hours of segments: an hour is busy when some segment's [start, end) meets it.
    /// - Complexity: O(s).
    package static func busyHours(of segments: some Sequence<Segment>) -> [Bool] {
        var busy = [Bool](repeating: false, count: 24)
        for segment in segments {
            let first = Int(segment.startMinute / 60)
            let last = min(23, Int((segment.endMinute - 1e-9) / 60))
            if first <= last { for h in first...last { busy[h] = true } }
        }
        return busy
    }

    /// x of a wall-clock minute, piecewise linear per hour.
    /// - Complexity: O(1).
    package func x(minute: Double) -> Double {
        let m = min(max(minute, 0), 1440)
        let hour = min(Int(m / 60), 23)
        return hourStarts[hour] + (m - Double(hour) * 60) / 60 * (hourStarts[hour + 1] - hourStarts[hour])
    }

    /// The minute at x; the inverse of ``x(minute:)``.
    /// - Complexity: O(log 24).
    package func minute(x: Double) -> Double {
        let v = min(max(x, 0), totalWidth)
        var hour = 0
        while hour < 23 && hourStarts[hour + 1] <= v { hour += 1 }
        return Double(hour) * 60 + (v - hourStarts[hour]) / (hourStarts[hour + 1] - hourStarts[hour]) * 60
    }
}
