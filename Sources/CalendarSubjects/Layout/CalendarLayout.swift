import Foundation

/// A rectangle in points.
public struct Rect: Sendable, Hashable, Codable {
    public var x, y, width, height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    /// Whether the interiors of the two rectangles meet (touching edges do not).
    public func intersects(_ other: Rect) -> Bool {
        x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
    }
}

/// A laid-out segment: where it is packed and where it is drawn.
public struct PlacedSegment: Sendable, Hashable {
    public var segment: Segment
    public var placement: LanePacker.Placement
    public var dayIndex: Int
    public var frame: Rect
    public var isAllDay: Bool
}

/// A "+N" chip standing for segments hidden by a lane limit.
public struct OverflowChip: Sendable, Hashable {
    public var group: LanePacker.OverflowGroup
    public var dayIndex: Int
    public var frame: Rect
}

/// The two presentations of the same segments and lane packing.
public enum Presentation: String, Sendable, Codable, CaseIterable {
    /// Day rows stacked vertically; each a horizontal 24-hour track on the compressed axis.
    case timeline
    /// Seven day columns with vertical time at a uniform hour height.
    case week
}

/// Geometry of the presentations.
public struct LayoutMetrics: Sendable, Equatable {
    public var trackWidth: Double = 1_000
    public var collapsedHourWidth: Double = 12
    public var laneHeight: Double = 22
    public var allDayLaneHeight: Double = 18
    public var minimumRowHeight: Double = 44
    public var weekColumnWidth: Double = 140
    public var hourHeight: Double = 48
    /// The most lanes a cluster may use; beyond it the last lane holds "+N" chips. `nil`: no limit.
    public var maxLanes: Int? = nil
    public init() {}
}

/// The layout of a window of days: split, packed, on the compressed axis, framed.
public struct CalendarLayout: Sendable {
    public let grid: DayGrid
    public let axis: CompressedTimeAxis
    public let presentation: Presentation
    /// Timed segments per day with their frames.
    public let days: [[PlacedSegment]]
    /// All-day segments per day.
    public let allDay: [[PlacedSegment]]
    /// "+N" chips per day (empty without a lane limit).
    public let overflow: [[OverflowChip]]
    /// Whether the layout was made with a lane limit.
    public let hasLaneLimit: Bool
    /// y of each day row's top (timeline) and total content height.
    public let rowTops: [Double]
    public let contentHeight: Double

    /// Lays out `events` over `grid`.
    /// - Complexity: O(n log n) for n segments (plus O(k²) per cluster of k lanes when expanding).
    public init(events: [CalendarEvent], grid: DayGrid, presentation: Presentation = .timeline, metrics: LayoutMetrics = LayoutMetrics()) {
        self.grid = grid
        self.presentation = presentation
        let split = DaySplitter.split(events, grid: grid)
        axis = CompressedTimeAxis(
            busyHours: CompressedTimeAxis.busyHours(of: split.timed.joined()),
            totalWidth: metrics.trackWidth, collapsedHourWidth: metrics.collapsedHourWidth)
        var days: [[PlacedSegment]] = []
        var allDay: [[PlacedSegment]] = []
        var overflow: [[OverflowChip]] = []
        var rowTops: [Double] = []
        var y = 0.0
        days.reserveCapacity(grid.days.count)
        for dayIndex in grid.days.indices {
            let packedAllDay = LanePacker.pack(split.allDay[dayIndex], expand: false)
            let packedTimed = LanePacker.pack(split.timed[dayIndex])
            let (packed, groups) = metrics.maxLanes.map { LanePacker.limit(packedTimed, maxLanes: $0) } ?? (packedTimed, [])
            let allDayLanes = packedAllDay.map { $0.1.laneCount }.max() ?? 0
            let lanes = (packed.map { $0.1.laneCount } + groups.map(\.laneCount)).max() ?? 1
            rowTops.append(y)
            // Where a timed item goes: its minutes, first lane, lanes covered and its cluster's lane count.
            let timedFrame: (Double, Double, Int, Int, Int) -> Rect
            var placedAllDay: [PlacedSegment] = []
            switch presentation {
            case .timeline:
                for (segment, placement) in packedAllDay {
                    let frame = Rect(
                        x: 0, y: y + Double(placement.lane) * metrics.allDayLaneHeight, width: metrics.trackWidth, height: metrics.allDayLaneHeight)
                    placedAllDay.append(PlacedSegment(segment: segment, placement: placement, dayIndex: dayIndex, frame: frame, isAllDay: true))
                }
                let trackTop = y + Double(allDayLanes) * metrics.allDayLaneHeight
                let rowHeight = max(metrics.minimumRowHeight, Double(lanes) * metrics.laneHeight)
                let axis = self.axis
                timedFrame = { start, end, lane, span, laneCount in
                    let top = Self.snap(trackTop + rowHeight * Double(lane) / Double(laneCount))
                    let bottom = Self.snap(trackTop + rowHeight * Double(lane + span) / Double(laneCount))
                    let x0 = Self.snap(axis.x(minute: start))
                    return Rect(x: x0, y: top, width: Self.snap(axis.x(minute: end)) - x0, height: bottom - top)
                }
                y = trackTop + rowHeight
            case .week:
                let column = Double(dayIndex % 7) * metrics.weekColumnWidth
                let weekTop = Double(dayIndex / 7) * (24 * metrics.hourHeight + 4 * metrics.allDayLaneHeight)
                if dayIndex % 7 == 0 { y = weekTop }
                for (segment, placement) in packedAllDay {
                    let frame = Rect(
                        x: column, y: weekTop + Double(min(placement.lane, 3)) * metrics.allDayLaneHeight, width: metrics.weekColumnWidth,
                        height: metrics.allDayLaneHeight)
                    placedAllDay.append(PlacedSegment(segment: segment, placement: placement, dayIndex: dayIndex, frame: frame, isAllDay: true))
                }
                let gridTop = weekTop + 4 * metrics.allDayLaneHeight
                timedFrame = { start, end, lane, span, laneCount in
                    let left = Self.snap(column + metrics.weekColumnWidth * Double(lane) / Double(laneCount))
                    let right = Self.snap(column + metrics.weekColumnWidth * Double(lane + span) / Double(laneCount))
                    let top = Self.snap(gridTop + start / 60 * metrics.hourHeight)
                    return Rect(x: left, y: top, width: right - left, height: Self.snap(gridTop + end / 60 * metrics.hourHeight) - top)
                }
                y = max(y, gridTop + 24 * metrics.hourHeight)
            }
            days.append(
                packed.map { segment, placement in
                    PlacedSegment(
                        segment: segment, placement: placement, dayIndex: dayIndex,
                        frame: timedFrame(segment.startMinute, segment.endMinute, placement.lane, placement.span, placement.laneCount), isAllDay: false)
                })
            overflow.append(
                groups.map { group in
                    OverflowChip(
                        group: group, dayIndex: dayIndex, frame: timedFrame(group.startMinute, group.endMinute, group.lane, 1, group.laneCount))
                })
            allDay.append(placedAllDay)
        }
        self.days = days
        self.allDay = allDay
        self.overflow = overflow
        hasLaneLimit = metrics.maxLanes != nil
        self.rowTops = rowTops
        contentHeight = y
    }

    /// Frames are snapped to half points (pixels at scale 2): lane edges shared by neighbours are
    /// then exactly equal, so touching frames never overlap by a rounding error.
    private static func snap(_ value: Double) -> Double { (value * 2).rounded() / 2 }

    /// Every placed segment, timed and all-day.
    public var allPlaced: [PlacedSegment] { Array(days.joined()) + Array(allDay.joined()) }
}
