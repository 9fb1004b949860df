import CalendarSubjects
import Foundation
import PerfKit
import PerfKitTesting
import Testing

// The calendar performance suite. Suites whose names end in `Benchmarks` are what `perfkit run`
// and `make demo` measure; under a plain `swift test` they run in smoke mode and still check
// their deterministic budgets and counts.

@Suite(.tags(.performance)) struct LayoutBenchmarks {
    static let utc = TimeZone(identifier: "UTC")!

    @Test(.performance(iterations: 20), arguments: [1, 7, 30, 90])
    func historyLayout(days: Int) throws {
        let events = Workloads.historyEvents(days: days, seed: 42)
        let grid = DayGrid(timeZone: Self.utc, from: Workloads.epoch, count: days)
        let result = try measure(
            "history-\(days)d",
            arms: Presentation.allCases.map {
                Arm($0.rawValue, LayoutSubject(events: events, grid: grid, presentation: $0))
            })
        // Every one of the 100 daily events is laid out, in both presentations.
        for arm in ["timeline", "week"] {
            #expect(result.series(CalendarMetrics.segmentsLaidOut, arm: arm, phase: .warm)?.values.allSatisfy { $0 == Double(days * 100) } == true)
        }
    }

    @Test(.performance(iterations: 20))
    func variedFixtureLayout() throws {
        let zone = TimeZone(identifier: "Europe/Berlin")!
        let events = Workloads.variedEvents(days: 30, seed: 7, timeZone: zone)
        let grid = DayGrid(timeZone: zone, from: Workloads.epoch, count: 30)
        try measure("varied-30d", arms: Presentation.allCases.map { Arm($0.rawValue, LayoutSubject(events: events, grid: grid, presentation: $0)) })
    }
}

@Suite(.tags(.performance)) struct ViewportBenchmarks {
    static let scene = CalendarScene(days: 30)

    @Test(.performance(iterations: 40))
    func scrollReferenceAgainstNative() throws {
        let result = try measure(
            "scroll-30d",
            arms: [
                Arm("reference", ViewportScrollSubject(scene: Self.scene, policy: .reference)),
                Arm("native", ViewportScrollSubject(scene: Self.scene, policy: .native)),
            ])
        let reference = try #require(result.series(CalendarMetrics.liveViews, arm: "reference", phase: .warm)?.values.max())
        let native = try #require(result.series(CalendarMetrics.liveViews, arm: "native", phase: .warm)?.values.max())
        #expect(reference == Double(Self.scene.index.descriptors.count))
        #expect(native <= reference * 0.1, "native keeps at least 90% fewer live views")
    }
}

@Suite(.tags(.performance)) struct ArtworkBenchmarks {
    @Test(.performance(iterations: 10))
    func prepareReferenceAgainstNative() throws {
        let scene = ViewportBenchmarks.scene
        let result = try measure(
            "artwork-30d",
            arms: [
                Arm("reference", ArtworkPreparationSubject(scene: scene, policy: .reference)),
                Arm("native", ArtworkPreparationSubject(scene: scene, policy: .native)),
            ])
        let reference = try #require(result.series(CalendarMetrics.consumerArtworkBytes, arm: "reference", phase: .warm)?.values.last)
        let native = try #require(result.series(CalendarMetrics.consumerArtworkBytes, arm: "native", phase: .warm)?.values.last)
        #expect(native <= reference * 0.42, "native owns at least 58% fewer artwork bytes")
        // Warm runs are all cache hits: nothing is rasterized after the first run.
        let prepared = try #require(result.series(CalendarMetrics.imagesPrepared, arm: "native", phase: .warm)?.values)
        #expect(Set(prepared).count == 1)
    }
}

@Suite(.tags(.performance)) struct ViewportQueryBenchmarks {
    @Test(.performance(iterations: 1_000))
    func queryCostDoesNotGrowWithLoadedDays() throws {
        let oneDay = CalendarScene(days: 1), ninetyDays = CalendarScene(days: 90)
        let result = try measure("query-390x200", arms: [Arm("1d", ViewportQuerySubject(scene: oneDay)), Arm("90d", ViewportQuerySubject(scene: ninetyDays))])
        #expect(
            !Jemalloc.isLinked || result.series(.mallocs, arm: "90d", phase: .warm)?.values.allSatisfy { $0 == 0 } == true, "a warm query reuses its buffer")
    }
}

@Suite(.tags(.performance)) struct RedrawBenchmarks {
    @Test(.performance(iterations: 10), .budget(RedrawSubject.unrelatedRecomputations, max: 0))
    func playbackClockRecomputesNoEventView() throws {
        let result = try measure("playback-100-updates", subject: RedrawSubject())
        #expect(result.series(RedrawSubject.playbackRecomputations, arm: "main", phase: .warm)?.values.allSatisfy { $0 == 100 } == true)
    }
}

@Suite(.tags(.performance)) struct InteractionBenchmarks {
    @Test(.performance(iterations: 60, kind: .frameInput), .budget(.directInteraction))
    func journalAppendOfADraggedEvent() throws {
        try measure("journal-append", subject: JournalAppendSubject())
    }

    @Test(.performance(iterations: 10, kind: .frameInput), .budget(.localAction))
    func switchViewOf30Days() throws {
        try measure("switch-view-30d", subject: LocalActionSubject(scene: ViewportBenchmarks.scene, action: .switchView))
    }

    @Test(.performance(iterations: 30, kind: .frameInput), .budget(.localAction))
    func openEventDetail() throws {
        try measure("open-detail", subject: LocalActionSubject(scene: ViewportBenchmarks.scene, action: .openDetail))
    }
}
