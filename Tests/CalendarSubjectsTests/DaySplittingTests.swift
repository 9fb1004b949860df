import CalendarSubjects
import Foundation
import PerfKit
import Testing

@Suite struct DaySplittingTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    static let utc = TimeZone(identifier: "UTC")!

    static func date(_ text: String, _ zone: TimeZone) -> Date {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm"
        formatter.timeZone = zone
        return formatter.date(from: text)!
    }

    static func event(_ id: String, _ start: String, _ end: String, _ zone: TimeZone = utc, allDay: Bool = false)
        -> CalendarEvent
    {
        CalendarEvent(
            sourceID: id, calendarID: "work", title: id, start: date(start, zone), end: date(end, zone),
            isAllDay: allDay)
    }

    @Test func daylightSavingDaysHave23And25Hours() {
        let spring = DayGrid(timeZone: Self.berlin, from: Self.date("2015-03-29T12:00", Self.berlin), count: 1)
        let autumn = DayGrid(timeZone: Self.berlin, from: Self.date("2015-10-25T12:00", Self.berlin), count: 1)
        #expect(spring.days[0].hours == 23)
        #expect(autumn.days[0].hours == 25)
        let split = DaySplitter.split(
            [Self.event("a", "2015-03-29T01:00", "2015-03-29T04:00", Self.berlin)], grid: spring)
        #expect(split.timed[0].map(\.startMinute) == [60])
        #expect(split.timed[0].map(\.endMinute) == [240])
    }

    @Test func overnightOccurrenceHasTwoSegmentsWithOneActionTarget() {
        let grid = DayGrid(timeZone: Self.utc, from: Self.date("2015-05-01T00:00", Self.utc), count: 3)
        let split = DaySplitter.split([Self.event("n", "2015-05-01T22:00", "2015-05-02T03:00")], grid: grid)
        let segments = split.timed.joined()
        #expect(segments.count == 2)
        #expect(Set(segments.map(\.id)).count == 2)
        #expect(Set(segments.map(\.actionTarget)).count == 1)
        #expect(split.timed[0][0].continuesToNextDay && !split.timed[0][0].continuesFromPreviousDay)
        #expect(split.timed[1][0].continuesFromPreviousDay && !split.timed[1][0].continuesToNextDay)
        #expect(split.timed[1][0].endMinute == 180)
    }

    @Test func eventEndingAtMidnightHasNoNextDaySegment() {
        let grid = DayGrid(timeZone: Self.utc, from: Self.date("2015-05-01T00:00", Self.utc), count: 2)
        let split = DaySplitter.split([Self.event("m", "2015-05-01T23:00", "2015-05-02T00:00")], grid: grid)
        #expect(
            split.timed[0].count == 1 && split.timed[0][0].endMinute == 1440 && !split.timed[0][0].continuesToNextDay)
        #expect(split.timed[1].isEmpty)
    }

    @Test func zeroLengthEventKeepsOneSegmentWithMinimumDuration() {
        let grid = DayGrid(timeZone: Self.utc, from: Self.date("2015-05-01T00:00", Self.utc), count: 1)
        let split = DaySplitter.split(
            [
                Self.event("z", "2015-05-01T10:00", "2015-05-01T10:00"),
                Self.event("late", "2015-05-01T23:59", "2015-05-01T23:59"),
            ], grid: grid)
        #expect(split.timed[0].count == 2)
        #expect(
            split.timed[0].allSatisfy {
                $0.endMinute - $0.startMinute == DaySplitter.minimumMinutes && $0.endMinute <= 1440
            })
    }

    @Test func touchingEventsDoNotOverlap() {
        let grid = DayGrid(timeZone: Self.utc, from: Self.date("2015-05-01T00:00", Self.utc), count: 1)
        let split = DaySplitter.split(
            [
                Self.event("a", "2015-05-01T10:00", "2015-05-01T10:30"),
                Self.event("b", "2015-05-01T10:30", "2015-05-01T11:00"),
            ], grid: grid)
        #expect(LanePacker.pack(split.timed[0]).allSatisfy { $0.1.laneCount == 1 && $0.1.lane == 0 })
    }

    @Test func allDayEventsGoToTheirOwnBand() {
        let grid = DayGrid(timeZone: Self.utc, from: Self.date("2015-05-01T00:00", Self.utc), count: 3)
        let split = DaySplitter.split(
            [Self.event("h", "2015-05-01T00:00", "2015-05-03T00:00", allDay: true)], grid: grid)
        #expect(split.allDay.map(\.count) == [1, 1, 0])
        #expect(split.timed.allSatisfy { $0.isEmpty })
    }

    @Test func storeExpandsLazilyAndReportsMonthCoverage() {
        let events = Workloads.historyEvents(days: 3, seed: 1)
        var store = CalendarStore(
            events: events, timeZone: Self.utc, around: Self.date("2015-03-30T12:00", Self.utc), chunkDays: 7)
        #expect(store.loadedDays.count == 15)
        let axis = store.layout.axis
        let grewInside = store.ensureLoaded(around: Self.date("2015-04-02T12:00", Self.utc))
        #expect(!grewInside)
        #expect(store.layout.axis == axis && store.layoutGeneration == 1)
        let grewOutside = store.ensureLoaded(around: Self.date("2015-04-12T12:00", Self.utc))
        #expect(grewOutside)
        #expect(store.loadedDays.count == 22 && store.layoutGeneration == 2)
        let coverage = store.monthCoverage(topVisibleDay: 0)
        #expect(coverage.loaded == ["2015-03", "2015-04"])
        #expect(coverage.current == "2015-03")
    }

    /// Fixed expected values, so code that ignores its seed (or changes the workload) fails.
    @Test func fixturesAreDeterministicAgainstFixedValues() {
        let varied = Workloads.variedEvents(days: 30, seed: 9)
        #expect(varied.count == 171)
        #expect(varied.first.map { [$0.sourceID, $0.title, $0.calendarID] } == ["v0-dst0", "Planning", "work"])
        #expect(varied.first?.start == Self.date("2015-03-02T01:00", Self.berlin))
        #expect(varied.last.map { [$0.sourceID, $0.title, $0.calendarID] } == ["v29-w19", "1:1", "health"])
        #expect(varied.last?.end == Self.date("2015-03-31T09:59", Self.berlin))
        let history = Workloads.historyEvents(days: 2, seed: 9)
        #expect(history.count == 200)
        #expect(history.first.map { [$0.sourceID, $0.title] } == ["h0-0", "Workshop"])
        #expect(history.first?.start == Self.date("2015-03-02T06:02", Self.utc))
        #expect(history.last?.start == Self.date("2015-03-03T07:56", Self.utc))
        #expect(Workloads.historyEvents(days: 2, seed: 10).first?.start != history.first?.start)
    }

    @Test func variedFixtureLaysOutWithoutIntersections() {
        let zone = Self.berlin
        let events = Workloads.variedEvents(days: 30, seed: 3, timeZone: zone)
        let layout = CalendarLayout(events: events, grid: DayGrid(timeZone: zone, from: Workloads.epoch, count: 30))
        #expect(layout.days.joined().count == 175)
        for day in layout.days {
            for (i, a) in day.enumerated() {
                for b in day[(i + 1)...]
                where a.segment.startMinute < b.segment.endMinute && b.segment.startMinute < a.segment.endMinute {
                    #expect(!a.frame.intersects(b.frame))
                }
            }
        }
        #expect(layout.grid.days.contains { $0.hours == 23 })  // 2015-03-29
    }
}
