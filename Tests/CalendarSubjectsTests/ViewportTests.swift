import CalendarSubjects
import Foundation
import PerfKit
import Testing

@Suite struct ViewportTests {
    /// Ten rows 100 pt tall on a 1,000 pt track, four 200 pt events per row at x = 0, 250, 500, 750.
    static func grid() -> ViewportIndex {
        var descriptors: [ViewDescriptor] = []
        for row in 0..<10 {
            for column in 0..<4 {
                let id = SegmentID(
                    occurrence: OccurrenceID(sourceID: "r\(row)c\(column)", originalStart: 0),
                    day: DayKey(year: 2015, month: 5, day: row + 1))
                let content = ViewContent(
                    title: id.occurrence.sourceID, timeText: "", calendarID: "work", occurrence: id.occurrence)
                descriptors.append(
                    ViewDescriptor(
                        id: id, frame: Rect(x: Double(column) * 250, y: Double(row) * 100, width: 200, height: 100)
                    ) { content })
            }
        }
        return ViewportIndex(descriptors)
    }

    static func rect(y: Double) -> Rect { Rect(x: 0, y: y, width: 390, height: 250) }

    /// A query examines exactly the rows that meet its band.
    ///
    /// A rect starting at a row's bottom edge (half-open intervals) does not examine that row, whatever the result
    /// (found by the mutation check: a row search that started one row early returned the same views, one row more
    /// work).
    @Test(arguments: [
        (y: 200.0, height: 50.0, rows: 1), (y: 250, height: 50, rows: 1), (y: 199, height: 2, rows: 2),
        (y: 0, height: 1_000, rows: 10),
    ])
    func aQueryExaminesOnlyTheRowsItsBandMeets(y: Double, height: Double, rows: Int) {
        var result: [Int] = []
        let examined = Self.grid().query(Rect(x: 0, y: y, width: 1_000, height: height), into: &result)
        #expect(examined == rows)
        #expect(result.count == rows * 4)
    }

    @Test(arguments: Array(UInt64(1)...25))
    func queryEqualsBruteForceOnRandomLayouts(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let zone = TimeZone(identifier: "Europe/Berlin")!
        let events =
            Workloads.variedEvents(days: 14, seed: seed, timeZone: zone) + LayoutPropertyTests.randomDay(seed: seed)
        for presentation in Presentation.allCases {
            let layout = CalendarLayout(
                events: events, grid: DayGrid(timeZone: zone, from: Workloads.epoch, count: 14),
                presentation: presentation)
            let index = ViewportIndex(layout.descriptors(events: events))
            for _ in 0..<40 {
                let rect = Rect(
                    x: Double(generator.index(below: 1_000)) - 100,
                    y: Double(generator.index(below: Int(layout.contentHeight) + 200)) - 100,
                    width: Double(1 + generator.index(below: 600)), height: Double(1 + generator.index(below: 900)))
                #expect(index.query(rect) == index.bruteForce(rect), "seed \(seed), \(presentation), \(rect)")
            }
        }
    }

    @Test func scrollingReusesCellsWithExactCounts() {
        let index = Self.grid()
        var viewport = Viewport(index: index, policy: .native, overscan: 0)
        viewport.scroll(to: Self.rect(y: 0))
        // The stated condition: the viewport is zoomed so that part of each day is off screen.
        let offScreen = index.descriptors.filter { $0.frame.x >= 390 && $0.frame.y < 250 }
        #expect(offScreen.count == 6)
        #expect(offScreen.allSatisfy { viewport.cell(for: $0.id) == nil })
        #expect(
            viewport.counters == ViewportCounters(liveViews: 6, viewsCreated: 6, viewsReused: 0, contentEvaluations: 6))
        let kept = viewport.cell(for: index.descriptors[4].id)  // row 1, column 0
        viewport.scroll(to: Self.rect(y: 100))  // row 0 leaves, row 3 enters
        #expect(
            viewport.counters == ViewportCounters(liveViews: 6, viewsCreated: 6, viewsReused: 2, contentEvaluations: 8))
        #expect(viewport.cell(for: index.descriptors[4].id) === kept)
        viewport.scroll(to: Self.rect(y: 150))  // nothing enters or leaves: row 4 starts at 400
        #expect(viewport.counters.contentEvaluations == 8)
        viewport.scroll(to: Self.rect(y: 700))  // rows 7 to 9: every view reused
        #expect(
            viewport.counters == ViewportCounters(liveViews: 6, viewsCreated: 6, viewsReused: 8, contentEvaluations: 14)
        )
    }

    @Test func referencePolicyBuildsEveryView() {
        let viewport = Viewport(index: Self.grid(), policy: .reference)
        #expect(viewport.counters.liveViews == 40 && viewport.counters.viewsCreated == 40)
    }

    @Test func theDraggedViewIsNeverRecycled() {
        let index = Self.grid()
        var viewport = Viewport(index: index, policy: .native, overscan: 0)
        viewport.scroll(to: Self.rect(y: 0))
        let dragged = index.descriptors[0].id
        let cell = viewport.cell(for: dragged)
        viewport.dragging = dragged
        viewport.scroll(to: Self.rect(y: 700))
        #expect(viewport.cell(for: dragged) === cell)
        #expect(cell?.boundID == dragged)
        #expect(viewport.counters.liveViews == 7)
        viewport.dragging = nil
        viewport.scroll(to: Self.rect(y: 700))
        #expect(viewport.cell(for: dragged) == nil && viewport.counters.liveViews == 6)
    }

    @Test func overnightWeekPiecesHaveDistinctIdentitiesAndOneActionTarget() {
        let utc = TimeZone(identifier: "UTC")!
        let start = Workloads.epoch.addingTimeInterval(22 * 3600)
        let event = CalendarEvent(
            sourceID: "night", calendarID: "work", title: "Flight", start: start,
            end: start.addingTimeInterval(5 * 3600))
        let layout = CalendarLayout(
            events: [event], grid: DayGrid(timeZone: utc, from: Workloads.epoch, count: 7), presentation: .week)
        let index = ViewportIndex(layout.descriptors(events: [event]))
        #expect(index.descriptors.count == 2)
        #expect(Set(index.descriptors.map(\.id)).count == 2)
        #expect(Set(index.descriptors.map { $0.content().occurrence }) == [event.occurrenceID])
        #expect(index.descriptors[0].frame.x != index.descriptors[1].frame.x)  // two day columns
    }

    @Test func aLateResultNeverRepaintsAReusedCell() {
        let index = Self.grid()
        let executor = ManualExecutor()
        let cache = ArtworkCache(executor: executor)
        var viewport = Viewport(index: index, policy: .native, overscan: 0)
        viewport.scroll(to: Self.rect(y: 0))
        let cell = viewport.cell(for: index.descriptors[0].id)!
        viewport.requestArtwork(for: cell, ArtworkCacheTests.paint("r0c0"), cache: cache)
        viewport.scroll(to: Self.rect(y: 300))  // row 0 leaves; its cells are reused for row 3
        #expect(cell.boundID != index.descriptors[0].id)
        executor.runAll()
        #expect(viewport.applyArtworkDeliveries() == 0)
        #expect(viewport.counters.lateResultsRejected == 1)
        #expect(cell.artwork == nil)
        #expect(cache.counters.bytesOwnedByConsumers == 0)
        // A result for the current binding is applied.
        viewport.requestArtwork(for: cell, ArtworkCacheTests.paint("current"), cache: cache)
        executor.runAll()
        #expect(viewport.applyArtworkDeliveries() == 1)
        #expect(cell.artwork?.artwork.description.title == "current")
    }
}
