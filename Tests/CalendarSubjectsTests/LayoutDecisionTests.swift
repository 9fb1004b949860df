import CalendarSubjects
import Foundation
import PerfKit
import Testing

/// The layout's decisions, each pinned to exact expected values: lanes per cluster, spans,
/// busy hours, midnight and daylight-saving edges, overscan.
@Suite struct LayoutDecisionTests {
    typealias D = DaySplittingTests
    static let grid = DayGrid(timeZone: D.utc, from: D.date("2015-05-01T00:00", D.utc), count: 2)

    static func packed(_ events: [CalendarEvent], expand: Bool = true) -> [String: LanePacker.Placement] {
        let segments = DaySplitter.split(events, grid: grid).timed[0]
        return Dictionary(
            uniqueKeysWithValues: LanePacker.pack(segments, expand: expand).map { ($0.0.id.occurrence.sourceID, $0.1) })
    }

    @Test func laneCountBelongsToTheClusterNotTheDay() {
        let placements = Self.packed([
            D.event("a", "2015-05-01T09:00", "2015-05-01T10:00"), D.event("b", "2015-05-01T09:00", "2015-05-01T10:00"),
            D.event("c", "2015-05-01T09:30", "2015-05-01T10:30"),
            D.event("lone", "2015-05-01T14:00", "2015-05-01T15:00"),
        ])
        #expect(placements["a"]?.laneCount == 3)
        #expect(placements["c"]?.laneCount == 3)
        // a later cluster starts afresh
        #expect(placements["lone"].map { [$0.lane, $0.span, $0.laneCount] } == [0, 1, 1])
    }

    @Test func touchingEventsShareALaneAndAChainedClusterStaysOne() {
        let placements = Self.packed([
            D.event("first", "2015-05-01T10:00", "2015-05-01T11:00"),
            D.event("second", "2015-05-01T11:00", "2015-05-01T12:00"),
            D.event("long", "2015-05-01T10:30", "2015-05-01T13:00"),
            D.event("late", "2015-05-01T12:30", "2015-05-01T13:30"),
        ])
        #expect(placements["first"]?.lane == 0)
        #expect(placements["second"]?.lane == 0)  // 11:00 end, 11:00 start: half-open, no overlap
        #expect(placements["long"]?.lane == 1)
        #expect(placements["late"]?.lane == 0)
        #expect(placements.values.allSatisfy { $0.laneCount == 2 })  // one cluster through 13:30
    }

    @Test func spansFillFreeLanesOnlyWhenExpanding() {
        let events = [
            D.event("a", "2015-05-01T09:00", "2015-05-01T12:00"), D.event("b", "2015-05-01T09:00", "2015-05-01T10:00"),
            D.event("c", "2015-05-01T09:00", "2015-05-01T10:00"), D.event("d", "2015-05-01T11:00", "2015-05-01T12:00"),
        ]
        let expanded = Self.packed(events)
        // lanes 1 and 2 are free from 11:00
        #expect(expanded["d"].map { [$0.lane, $0.span, $0.laneCount] } == [1, 2, 3])
        let flat = Self.packed(events, expand: false)
        #expect(flat.values.allSatisfy { $0.span == 1 })
    }

    @Test func busyHoursAreEveryHourAnEventTouchesAndNoMore() {
        let split = DaySplitter.split(
            [
                D.event("a", "2015-05-01T09:00", "2015-05-01T12:00"),
                D.event("b", "2015-05-01T15:30", "2015-05-01T15:45"),
            ], grid: Self.grid)
        let busy = CompressedTimeAxis.busyHours(of: split.timed[0])
        #expect((0..<24).filter { busy[$0] } == [9, 10, 11, 15])  // ending at 12:00 does not touch hour 12
        let axis = CompressedTimeAxis(busyHours: busy, totalWidth: 1_000, collapsedHourWidth: 12)
        let widths = zip(axis.hourStarts, axis.hourStarts.dropFirst()).map { $1 - $0 }
        #expect(abs(widths[9] - (1_000 - 12 * 20) / 4) < 1e-9)
        #expect(widths.enumerated().allSatisfy { busy[$0.offset] ? $0.element > 12 : abs($0.element - 12) < 1e-9 })
    }

    @Test func anEventEndingAtMidnightEndsAt1440AndStartsNoNextDay() {
        let split = DaySplitter.split(
            [
                D.event("late", "2015-05-01T22:00", "2015-05-02T00:00"),
                D.event("early", "2015-05-02T00:00", "2015-05-02T01:00"),
            ], grid: Self.grid)
        #expect(split.timed[0].map(\.endMinute) == [1440])
        #expect(split.timed[0].map(\.continuesToNextDay) == [false])
        #expect(split.timed[1].map(\.id.occurrence.sourceID) == ["early"])
        #expect(split.timed[1][0].continuesFromPreviousDay == false)  // starting exactly at midnight continues nothing
    }

    @Test func theRepeatedAutumnHourKeepsWallClockMinutes() {
        let berlin = D.berlin
        let grid = DayGrid(timeZone: berlin, from: D.date("2015-10-25T12:00", berlin), count: 1)
        func event(_ id: String, _ start: String, _ end: String) -> CalendarEvent {
            CalendarEvent(
                sourceID: id, calendarID: "w", title: "", start: D.date(start, D.utc), end: D.date(end, D.utc))
        }
        // Times in UTC; Berlin wall clock in the comments.
        let events = [
            event("first", "2015-10-25T00:30", "2015-10-25T00:45"),  // 02:30 CEST
            event("second", "2015-10-25T01:30", "2015-10-25T02:30"),  // 02:30 CET
            event("across", "2015-10-24T23:30", "2015-10-25T01:30"),  // 01:30 CEST → 02:30 CET
            event("inverted", "2015-10-25T00:45", "2015-10-25T01:15"),  // 02:45 → 02:15 wall
        ]
        let segments = Dictionary(
            uniqueKeysWithValues: DaySplitter.split(events, grid: grid).timed[0].map {
                ($0.id.occurrence.sourceID, ($0.startMinute, $0.endMinute))
            })
        #expect(grid.days[0].hours == 25)
        #expect(segments["first"]! == (150, 165))
        #expect(segments["second"]! == (150, 210))
        #expect(segments["across"]! == (90, 150))
        #expect(segments["inverted"]! == (165, 180))  // a wall-clock inversion keeps the 15-minute minimum
    }

    @Test func lordHoweShiftsByThirtyMinutes() {
        let zone = TimeZone(identifier: "Australia/Lord_Howe")!
        let spring = DayGrid(timeZone: zone, from: D.date("2015-10-04T12:00", zone), count: 1)
        let autumn = DayGrid(timeZone: zone, from: D.date("2015-04-05T12:00", zone), count: 1)
        #expect(spring.days[0].hours == 23.5)
        #expect(autumn.days[0].hours == 24.5)
        #expect(spring.days[0].transition?.minutes == 30)
        #expect(autumn.days[0].transition?.minutes == -30)
        let split = DaySplitter.split([D.event("after", "2015-10-04T03:00", "2015-10-04T04:00", zone)], grid: spring)
        #expect(split.timed[0].map { [$0.startMinute, $0.endMinute] } == [[180, 240]])
    }

    @Test(arguments: Array(UInt64(1)...20))
    func framesHavePositiveSizeInsideTheirRowOrColumn(seed: UInt64) {
        let events = LayoutPropertyTests.randomDay(seed: seed)
        let grid = DayGrid(timeZone: D.utc, from: Workloads.epoch, count: 2)
        for presentation in Presentation.allCases {
            let metrics = LayoutMetrics()
            let layout = CalendarLayout(events: events, grid: grid, presentation: presentation, metrics: metrics)
            for placed in layout.days.joined() {
                #expect(placed.frame.width > 0 && placed.frame.height > 0, "seed \(seed)")
                switch presentation {
                case .timeline:
                    let top = layout.rowTops[placed.dayIndex]
                    let bottom =
                        placed.dayIndex + 1 < layout.rowTops.count
                        ? layout.rowTops[placed.dayIndex + 1] : layout.contentHeight
                    #expect(
                        placed.frame.y >= top && placed.frame.maxY <= bottom, "seed \(seed): row \(placed.dayIndex)")
                    #expect(placed.frame.x >= 0 && placed.frame.maxX <= metrics.trackWidth + 1e-9)
                default:
                    let column = Double(placed.dayIndex % 7) * metrics.weekColumnWidth
                    #expect(
                        placed.frame.x >= column - 1e-9 && placed.frame.maxX <= column + metrics.weekColumnWidth + 1e-9,
                        "seed \(seed)")
                }
            }
        }
    }

    @Test(arguments: [0.0, 50, 200])
    func overscanBindsExactlyTheExpandedRect(overscan: Double) {
        let index = ViewportTests.grid()
        var viewport = Viewport(index: index, policy: .native, overscan: overscan)
        let visible = Rect(x: 0, y: 420, width: 390, height: 250)
        _ = viewport.scroll(to: visible)
        let expanded = Rect(x: 0, y: visible.y - overscan, width: visible.width, height: visible.height + 2 * overscan)
        #expect(viewport.counters.liveViews == index.bruteForce(expanded).count)
        #expect(Set(viewport.liveCells.compactMap(\.descriptorIndex)) == Set(index.bruteForce(expanded)))
    }
}
