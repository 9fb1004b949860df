import CalendarSubjects
import Testing

@Suite struct RedrawProbeTests {
    static func model() -> CalendarScreenModel {
        CalendarScreenModel(
            events: (0..<20).map { .init(title: "Event \($0)", timeText: "10:00") },
            selectedDay: DayKey(year: 2015, month: 5, day: 1))
    }

    @Test func playbackUpdatesRecomputeNoCalendarEventView() {
        var ticker = ImmediateTicker()
        let report = RedrawProbe(model: Self.model()).run(updates: 100, ticker: &ticker)
        #expect(ticker.ticks == 100)
        #expect(report.recomputations[.playbackBar] == 100)
        #expect(report.recomputations[.eventView] == nil)
        #expect(report.unrelatedTotal == 0)
    }

    @Test func aDeliberatelyWrongDependencyIsCaught() {
        var ticker = ImmediateTicker()
        let report = RedrawProbe(model: Self.model(), wrongDependency: true).run(updates: 100, ticker: &ticker)
        #expect(report.unrelated[.eventView] == 20 * 100)
        #expect(report.unrelated[.dayHeader] == nil)
    }
}
