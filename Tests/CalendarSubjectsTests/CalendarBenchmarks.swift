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

    @Test(.performance(samples: 20), arguments: [1, 7, 30, 90])
    func historyLayout(days: Int) throws {
        let events = Workloads.historyEvents(days: days, seed: 42)
        let grid = DayGrid(timeZone: Self.utc, from: Workloads.epoch, count: days)
        // One measurement name for every case: each case is its own series (`historyLayout(days:) days = 7`),
        // and the growth view fits the cases' cost against days.
        let result = try measure(
            "history",
            arms: Presentation.allCases.map {
                Arm($0.rawValue, LayoutSubject(events: events, grid: grid, presentation: $0))
            })
        // Every one of the 100 daily events is laid out, in both presentations.
        for arm in ["timeline", "week"] {
            #expect(
                result.series(CalendarMetrics.segmentsLaidOut, arm: arm, phase: .warm)?.values.allSatisfy {
                    $0 == Double(days * 100)
                } == true)
        }
    }

    @Test(.performance(samples: 20))
    func variedFixtureLayout() throws {
        let zone = TimeZone(identifier: "Europe/Berlin")!
        let events = Workloads.variedEvents(days: 30, seed: 7, timeZone: zone)
        let grid = DayGrid(timeZone: zone, from: Workloads.epoch, count: 30)
        let result = try measure(
            "varied-30d",
            arms: Presentation.allCases.map {
                Arm($0.rawValue, LayoutSubject(events: events, grid: grid, presentation: $0))
            })
        let split = DaySplitter.split(events, grid: grid)
        let segments = Double(split.timed.joined().count)  // timed segments; all-day ones have their own band
        for arm in ["timeline", "week"] {
            #expect(
                result.series(CalendarMetrics.segmentsLaidOut, arm: arm, phase: .warm)?.values.allSatisfy {
                    $0 == segments
                } == true)
        }
    }
}

@Suite(.tags(.performance)) struct ViewportBenchmarks {
    static let scene = CalendarScene(days: 30)

    @Test(.performance(samples: 40))
    func scrollReferenceAgainstNative() throws {
        let result = try measure(
            "scroll-30d",
            arms: [
                Arm("reference", ViewportScrollSubject(scene: Self.scene, policy: .reference)),
                Arm("native", ViewportScrollSubject(scene: Self.scene, policy: .native)),
            ])
        let reference = try #require(
            result.series(CalendarMetrics.liveViews, arm: "reference", phase: .warm)?.values.max())
        let native = try #require(result.series(CalendarMetrics.liveViews, arm: "native", phase: .warm)?.values.max())
        #expect(reference == Double(Self.scene.index.descriptors.count))
        #expect(native <= reference * 0.1, "native keeps at least 90% fewer live views")
    }
}

@Suite(.tags(.performance)) struct ArtworkBenchmarks {
    @Test(.performance(samples: 10))
    func prepareReferenceAgainstNative() throws {
        let scene = ViewportBenchmarks.scene
        let result = try measure(
            "artwork-30d",
            arms: [
                Arm("reference", ArtworkPreparationSubject(scene: scene, policy: .reference)),
                Arm("native", ArtworkPreparationSubject(scene: scene, policy: .native)),
            ])
        let reference = try #require(
            result.series(CalendarMetrics.consumerArtworkBytes, arm: "reference", phase: .warm)?.values.last)
        let native = try #require(
            result.series(CalendarMetrics.consumerArtworkBytes, arm: "native", phase: .warm)?.values.last)
        #expect(native <= reference * 0.42, "native owns at least 58% fewer artwork bytes")
        // Warm runs are all cache hits: nothing is rasterized after the first run.
        let prepared = try #require(result.series(CalendarMetrics.imagesPrepared, arm: "native", phase: .warm)?.values)
        #expect(Set(prepared).count == 1)
    }
}

@Suite(.tags(.performance)) struct ViewportQueryBenchmarks {
    /// One viewport query (a 390×200 pt band) over 1 to 90 loaded days.
    ///
    /// The work it does is bounded by the rows a band can meet, whatever is loaded: asserted here exactly (rows
    /// examined, no allocation), and shown by the growth view of its simulated instructions. Its wall-clock time is not
    /// asserted: it also pays for memory the larger index spreads over (see the report).
    @Test(.performance(samples: 1_000), arguments: [1, 7, 30, 90])
    func queryWorkIsBoundedWhateverIsLoaded(days: Int) throws {
        let oneDay = CalendarScene(days: 1), scene = CalendarScene(days: days)
        let result = try measure("query-390x200", subject: ViewportQuerySubject(scene: scene))
        if let mallocs = result.series(.mallocs, arm: "main", phase: .warm) {
            #expect(mallocs.values.allSatisfy { $0 == 0 }, "a warm query reuses its buffer")
        } else {
            // No exact count without jemalloc, or in a process of a split run that leaves it to the first.
            #expect(
                !Jemalloc.isLinked || PerformanceMode.current.leavesExactCountsToAnotherProcess,
                "no exact allocation count was taken")
        }
        // Work is bounded by the rows a 200 pt band can meet: at most the rows of three whole
        // days (a band spans parts of at most three day rows), for 1 loaded day or 90, never the
        // 90 days' 1,242 rows.
        let bound = Double(3 * oneDay.index.rowCount)
        let rows = try #require(result.series(ViewportQuerySubject.rowsExamined, arm: "main", phase: .warm)?.values)
        #expect(rows.allSatisfy { $0 >= 1 && $0 <= bound }, "up to \(rows.max() ?? 0) rows examined, bound \(bound)")
        if days == 90 { #expect(Double(scene.index.rowCount) > 10 * bound) }
    }
}

@Suite(.tags(.performance)) struct RedrawBenchmarks {
    @Test(.performance(samples: 10), .budget(RedrawSubject.unrelatedRecomputations, max: 0))
    func playbackClockRecomputesNoEventView() throws {
        let result = try measure("playback-100-updates", subject: RedrawSubject())
        #expect(
            result.series(RedrawSubject.playbackRecomputations, arm: "main", phase: .warm)?.values.allSatisfy {
                $0 == 100
            } == true)
    }
}

@Suite(.tags(.performance)) struct InteractionBenchmarks {
    @Test(.performance(samples: 60, kind: .frameInput), .budget(.directInteraction))
    func journalAppendOfADraggedEvent() throws {
        let result = try measure("journal-append", subject: JournalAppendSubject())
        let appended = try #require(
            result.series(JournalAppendSubject.recordsAppended, arm: "main", phase: .warm)?.values)
        #expect(
            result.series(JournalAppendSubject.recordsOnDisk, arm: "main", phase: .warm)?.values == appended,
            "every acknowledged append is on disk")
    }

    @Test(.performance(samples: 10, kind: .frameInput), .budget(.localAction))
    func switchViewOf30Days() throws {
        let scene = ViewportBenchmarks.scene
        let result = try measure("switch-view-30d", subject: LocalActionSubject(scene: scene, action: .switchView))
        let expected = Set(
            Presentation.allCases.map { presentation in
                Double(
                    CalendarLayout(events: scene.events, grid: scene.layout.grid, presentation: presentation)
                        .descriptors(events: scene.events).count)
            })
        let produced = try #require(result.series(LocalActionSubject.produced, arm: "main", phase: .warm)?.values)
        #expect(
            Set(produced).isSubset(of: expected) && !produced.isEmpty,
            "each switch lays out the whole window in one presentation")
    }

    @Test(.performance(samples: 30, kind: .frameInput), .budget(.localAction))
    func openEventDetail() throws {
        let result = try measure(
            "open-detail", subject: LocalActionSubject(scene: ViewportBenchmarks.scene, action: .openDetail))
        #expect(
            result.series(LocalActionSubject.produced, arm: "main", phase: .warm)?.values.allSatisfy { $0 > 0 } == true,
            "every detail has text")
    }
}
