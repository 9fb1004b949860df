import CalendarSubjects
import Foundation
import PerfKit
import Testing

/// Property tests over seeded random days: every failure reproduces from its seed.
@Suite struct LayoutPropertyTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let seeds: [UInt64] = Array(1...40)

    static func randomDay(seed: UInt64) -> [CalendarEvent] {
        var generator = SeededGenerator(seed: seed)
        let midnight = Workloads.epoch.timeIntervalSince1970
        return (0..<(1 + generator.index(below: 30))).map { k in
            let start = Double(generator.index(below: 1_440 + 120) - 60)  // some start the day before
            let length = Double(generator.index(below: 8) == 0 ? 0 : 5 * (1 + generator.index(below: 60)))
            return CalendarEvent(
                sourceID: "e\(k)", calendarID: "work", title: "E\(k)",
                start: Date(timeIntervalSince1970: midnight + start * 60),
                end: Date(timeIntervalSince1970: midnight + (start + length) * 60))
        }
    }

    static func maxConcurrency(_ segments: [Segment]) -> Int {
        var points: [(Double, Int)] = []
        for s in segments { points += [(s.startMinute, 1), (s.endMinute, -1)] }
        points.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }  // ends before starts: half-open
        var current = 0, best = 0
        for p in points { current += p.1; best = max(best, current) }
        return best
    }

    @Test(arguments: seeds)
    func overlappingSegmentsNeverGetIntersectingFrames(seed: UInt64) {
        let grid = DayGrid(timeZone: Self.utc, from: Workloads.epoch, count: 2)
        for presentation in Presentation.allCases {
            let layout = CalendarLayout(events: Self.randomDay(seed: seed), grid: grid, presentation: presentation)
            for day in layout.days {
                for (i, a) in day.enumerated() {
                    for b in day[(i + 1)...]
                    where a.segment.startMinute < b.segment.endMinute && b.segment.startMinute < a.segment.endMinute {
                        #expect(!a.frame.intersects(b.frame), "seed \(seed): \(a.segment.id) and \(b.segment.id)")
                    }
                }
            }
        }
    }

    @Test(arguments: seeds)
    func laneCountEqualsMaximumConcurrency(seed: UInt64) {
        let grid = DayGrid(timeZone: Self.utc, from: Workloads.epoch, count: 1)
        let segments = DaySplitter.split(Self.randomDay(seed: seed), grid: grid).timed[0]
        let packed = LanePacker.pack(segments)
        let lanes = packed.map { $0.1.laneCount }.max() ?? 0
        #expect(lanes == Self.maxConcurrency(segments), "seed \(seed)")
    }

    @Test(arguments: seeds)
    func packingDoesNotDependOnInputOrder(seed: UInt64) {
        let grid = DayGrid(timeZone: Self.utc, from: Workloads.epoch, count: 1)
        let segments = DaySplitter.split(Self.randomDay(seed: seed), grid: grid).timed[0]
        var generator = SeededGenerator(seed: seed &+ 1000)
        let shuffled = segments.shuffled(using: &generator)
        let a = LanePacker.pack(segments).map { "\($0.0.id) \($0.1)" }
        let b = LanePacker.pack(shuffled).map { "\($0.0.id) \($0.1)" }
        #expect(a == b)
    }

    @Test(arguments: seeds)
    func axisInvariantsAndRoundTrip(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let busy = (0..<24).map { _ in generator.index(below: 3) == 0 }
        let axis = CompressedTimeAxis(
            busyHours: busy, totalWidth: 600 + Double(generator.index(below: 800)),
            collapsedHourWidth: 4 + Double(generator.index(below: 20)))
        #expect(axis.x(minute: 0) == 0)
        #expect(axis.x(minute: 1440) == axis.totalWidth)
        #expect(axis.hourStarts.count == 25)
        var previous = -1.0
        for minute in stride(from: 0.0, through: 1440, by: 7.5) {
            let x = axis.x(minute: minute)
            #expect(x > previous)
            previous = x
            #expect(abs(axis.minute(x: x) - minute) < 1e-9)
        }
        for hour in 1..<24 {  // continuity: approaching an hour boundary from the left meets its start
            #expect(abs(axis.x(minute: Double(hour * 60) - 1e-9) - axis.hourStarts[hour]) < 1e-6)
        }
        if !busy.contains(true) {
            #expect(Set(zip(axis.hourStarts, axis.hourStarts.dropFirst()).map { ($1 - $0).rounded() }).count == 1)
        }
    }

    @Test(arguments: seeds)
    func laneLimitHidesOverflowInPlusNChipsWithoutIntersections(seed: UInt64) {
        var metrics = LayoutMetrics()
        metrics.maxLanes = 3
        let events = Self.randomDay(seed: seed)
        let grid = DayGrid(timeZone: Self.utc, from: Workloads.epoch, count: 1)
        let all = DaySplitter.split(events, grid: grid).timed[0]
        for presentation in Presentation.allCases {
            let layout = CalendarLayout(events: events, grid: grid, presentation: presentation, metrics: metrics)
            let visible = layout.days[0], chips = layout.overflow[0]
            // Every segment is either shown or counted in exactly one chip.
            let hidden = chips.flatMap { $0.group.segments.map(\.id) }
            #expect(visible.count + hidden.count == all.count, "seed \(seed)")
            #expect(Set(visible.map(\.segment.id)).isDisjoint(with: hidden))
            #expect(visible.allSatisfy { $0.placement.laneCount <= 3 && $0.placement.lane + $0.placement.span <= 3 })
            #expect(chips.allSatisfy { $0.group.count >= 1 && $0.group.lane == 2 })
            if Self.maxConcurrency(all) <= 3 { #expect(chips.isEmpty) }
            let frames =
                visible.map { ($0.frame, $0.segment.startMinute, $0.segment.endMinute) }
                + chips.map { ($0.frame, $0.group.startMinute, $0.group.endMinute) }
            for (i, a) in frames.enumerated() {
                for b in frames[(i + 1)...] where a.1 < b.2 && b.1 < a.2 {
                    #expect(!a.0.intersects(b.0), "seed \(seed), \(presentation)")
                }
            }
        }
    }
}
