import Foundation

/// A rectangle in points.
package struct Rect: Sendable, Hashable, Codable {
    /// Origin and size, in points.
    package var x, y, width, height: Double
    /// A rectangle.
    package init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
    /// The right edge.
    package var maxX: Double { x + width }
    /// The bottom edge.
    package var maxY: Double { y + height }
    /// Whether the interiors of the two rectangles meet (touching edges do not).
    package func intersects(_ other: Rect) -> Bool {
        x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
    }
}

/// A laid-out segment: where it is packed and where it is drawn.
package struct PlacedSegment: Sendable, Hashable {
    /// The day's part of the event.
    package var segment: Segment
    /// Its lane and span.
    package var placement: LanePacker.Placement
    /// The day's index in the grid.
    package var dayIndex: Int
    /// Its frame in content coordinates.
    package var frame: Rect
    /// Whether it sits in the all-day lanes.
    package var isAllDay: Bool
}

/// A "+N" chip standing for segments hidden by a lane limit.
package struct OverflowChip: Sendable, Hashable {
    /// The events the chip stands for.
    package var group: LanePacker.OverflowGroup
    /// The day's index in the grid.
    package var dayIndex: Int
    /// The chip's frame in content coordinates.
    package var frame: Rect
}

/// The two presentations of the same segments and lane packing.
package enum Presentation: String, Sendable, Codable, CaseIterable {
    /// Day rows stacked vertically; each a horizontal 24-hour track on the compressed axis.
    case timeline
    /// Seven day columns with vertical time at a uniform hour height.
    case week
}

/// Geometry of the presentations.
package struct LayoutMetrics: Sendable, Equatable {
    /// Width of a day's timeline track, in points.
    package var trackWidth: Double = 1_000
    /// Width of an hour with no event (compressed axis).
    package var collapsedHourWidth: Double = 12
    /// Height of a timed lane.
    package var laneHeight: Double = 22
    /// Height of an all-day lane.
    package var allDayLaneHeight: Double = 18
    /// Smallest height of a day's row.
    package var minimumRowHeight: Double = 44
    /// Width of a day's column in the week presentation.
    package var weekColumnWidth: Double = 140
    /// Height of an hour in the week presentation.
    package var hourHeight: Double = 48
    /// The most lanes a cluster may use; beyond it the last lane holds "+N" chips. `nil`: no limit.
    package var maxLanes: Int? = nil
    /// The default metrics.
    package init() {}
}

/// The layout of a window of days: split, packed, on the compressed axis, framed.
package struct CalendarLayout: Sendable {
    /// The days laid out.
    package let grid: DayGrid
    /// The compressed hour axis (busy hours wide, empty ones narrow).
    package let axis: CompressedTimeAxis
    /// Timeline or week.
    package let presentation: Presentation
    /// Timed segments per day with their frames.
    package let days: [[PlacedSegment]]
    /// All-day segments per day.
    package let allDay: [[PlacedSegment]]
    /// "+N" chips per day with a lane limit; an empty list (no days at all) without one.
    package let overflow: [[OverflowChip]]
    /// Whether the layout was made with a lane limit.
    package let hasLaneLimit: Bool
    /// y of each day row's top (timeline) and total content height.
    package let rowTops: [Double]
    /// Height of the whole content, in points.
    package let contentHeight: Double

    /// Lays out `events` over `grid`.
    /// - Complexity: O(n log n) for n segments (plus O(k²) per cluster of k lanes when expanding).
    package init(
        events: [CalendarEvent], grid: DayGrid, presentation: Presentation = .timeline,
        metrics: LayoutMetrics = LayoutMetrics()
    ) {
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
        allDay.reserveCapacity(grid.days.count)
        if metrics.maxLanes != nil { overflow.reserveCapacity(grid.days.count) }
        rowTops.reserveCapacity(grid.days.count)
        for dayIndex in grid.days.indices {
            rowTops.append(y)
            let row = Self.layOutDay(
                dayIndex, allDay: split.allDay[dayIndex], timed: split.timed[dayIndex], axis: axis,
                presentation: presentation, metrics: metrics, y: &y)
            days.append(row.timed)
            overflow.append(row.chips)
            allDay.append(row.allDay)
        }
        self.days = days
        self.allDay = allDay
        self.overflow = overflow
        hasLaneLimit = metrics.maxLanes != nil
        self.rowTops = rowTops
        contentHeight = y
    }

    /// One day's placed segments and chips.
    private struct DayRow {
        /// Timed segments with their frames.
        var timed: [PlacedSegment]
        /// All-day segments with their frames.
        var allDay: [PlacedSegment]
        /// "+N" chips of a lane limit.
        var chips: [OverflowChip]
    }

    /// Packs and frames one day whose row starts at `y`; `y` becomes the next row's top.
    private static func layOutDay(
        _ dayIndex: Int, allDay allDaySegments: [Segment], timed timedSegments: [Segment], axis: CompressedTimeAxis,
        presentation: Presentation, metrics: LayoutMetrics, y: inout Double
    ) -> DayRow {
        let packedAllDay = LanePacker.pack(allDaySegments, expand: false)
        let packedTimed = LanePacker.pack(timedSegments)
        let (packed, groups) =
            metrics.maxLanes.map { LanePacker.limit(packedTimed, maxLanes: $0) } ?? (packedTimed, [])
        var lanes = 1
        for (_, placement) in packed { lanes = max(lanes, placement.laneCount) }
        for group in groups { lanes = max(lanes, group.laneCount) }
        let (geometry, placedAllDay) = frameAllDay(
            packedAllDay, dayIndex: dayIndex, timedLanes: lanes, presentation: presentation, metrics: metrics, y: &y)
        var placed: [PlacedSegment] = []
        placed.reserveCapacity(packed.count)
        for (segment, placement) in packed {
            let frame = geometry.frame(
                segment.startMinute, segment.endMinute, lane: placement.lane, span: placement.span,
                laneCount: placement.laneCount, axis: axis,
                metrics: metrics)
            placed.append(
                PlacedSegment(
                    segment: segment, placement: placement, dayIndex: dayIndex, frame: frame, isAllDay: false))
        }
        var chips: [OverflowChip] = []
        for group in groups {
            let frame = geometry.frame(
                group.startMinute, group.endMinute, lane: group.lane, span: 1, laneCount: group.laneCount,
                axis: axis, metrics: metrics)
            chips.append(OverflowChip(group: group, dayIndex: dayIndex, frame: frame))
        }
        return DayRow(timed: placed, allDay: placedAllDay, chips: chips)
    }

    /// Frames a day's all-day segments and says where its timed segments go; `y` becomes the next row's top.
    private static func frameAllDay(
        _ packedAllDay: [(Segment, LanePacker.Placement)], dayIndex: Int, timedLanes lanes: Int,
        presentation: Presentation, metrics: LayoutMetrics, y: inout Double
    ) -> (TimedGeometry, [PlacedSegment]) {
        var placedAllDay: [PlacedSegment] = []
        switch presentation {
        case .timeline:
            let allDayLanes = packedAllDay.map { $0.1.laneCount }.max() ?? 0
            for (segment, placement) in packedAllDay {
                let frame = Rect(
                    x: 0, y: y + Double(placement.lane) * metrics.allDayLaneHeight, width: metrics.trackWidth,
                    height: metrics.allDayLaneHeight)
                placedAllDay.append(
                    PlacedSegment(
                        segment: segment, placement: placement, dayIndex: dayIndex, frame: frame, isAllDay: true))
            }
            let trackTop = y + Double(allDayLanes) * metrics.allDayLaneHeight
            let rowHeight = max(metrics.minimumRowHeight, Double(lanes) * metrics.laneHeight)
            y = trackTop + rowHeight
            return (.timeline(trackTop: trackTop, rowHeight: rowHeight), placedAllDay)
        case .week:
            let column = Double(dayIndex % 7) * metrics.weekColumnWidth
            let weekTop = Double(dayIndex / 7) * (24 * metrics.hourHeight + 4 * metrics.allDayLaneHeight)
            if dayIndex % 7 == 0 { y = weekTop }
            for (segment, placement) in packedAllDay {
                let frame = Rect(
                    x: column, y: weekTop + Double(min(placement.lane, 3)) * metrics.allDayLaneHeight,
                    width: metrics.weekColumnWidth,
                    height: metrics.allDayLaneHeight)
                placedAllDay.append(
                    PlacedSegment(
                        segment: segment, placement: placement, dayIndex: dayIndex, frame: frame, isAllDay: true))
            }
            let gridTop = weekTop + 4 * metrics.allDayLaneHeight
            y = max(y, gridTop + 24 * metrics.hourHeight)
            return (.week(column: column, gridTop: gridTop), placedAllDay)
        }
    }

    /// Frames are snapped to half points (pixels at scale 2).
    ///
    /// Lane edges shared by neighbours are then exactly equal, so touching frames never overlap by a rounding error.
    fileprivate static func snap(_ value: Double) -> Double { (value * 2).rounded() / 2 }

    /// Every placed segment, timed and all-day.
    package var allPlaced: [PlacedSegment] { Array(days.joined()) + Array(allDay.joined()) }
}

/// Where timed items of one day go: a value, so laying out a day allocates nothing for it.
private enum TimedGeometry {
    /// A day row: lanes stacked vertically inside the row, time along x on the compressed axis.
    case timeline(trackTop: Double, rowHeight: Double)
    /// A day column: lanes side by side, time down the column at a uniform hour height.
    case week(column: Double, gridTop: Double)

    /// The frame of an item from `start` to `end` (minutes) in `lane`, covering `span` of `laneCount` lanes.
    func frame(
        _ start: Double, _ end: Double, lane: Int, span: Int, laneCount: Int, axis: CompressedTimeAxis,
        metrics: LayoutMetrics
    ) -> Rect {
        let snap = CalendarLayout.snap
        switch self {
        case .timeline(let trackTop, let rowHeight):
            let top = snap(trackTop + rowHeight * Double(lane) / Double(laneCount))
            let bottom = snap(trackTop + rowHeight * Double(lane + span) / Double(laneCount))
            let x0 = snap(axis.x(minute: start))
            return Rect(x: x0, y: top, width: snap(axis.x(minute: end)) - x0, height: bottom - top)
        case .week(let column, let gridTop):
            let left = snap(column + metrics.weekColumnWidth * Double(lane) / Double(laneCount))
            let right = snap(column + metrics.weekColumnWidth * Double(lane + span) / Double(laneCount))
            let top = snap(gridTop + start / 60 * metrics.hourHeight)
            return Rect(
                x: left, y: top, width: right - left, height: snap(gridTop + end / 60 * metrics.hourHeight) - top)
        }
    }
}
