import Foundation
import PerfKit

/// Random viewport queries over a scene.
///
/// A 390 × 200 pt rect at a seeded random position inside the content, so a query over one day and one over ninety see
/// the same amount of content.
package struct ViewportQuerySubject: MeasurableSubject {
    /// The scene queried.
    package let scene: CalendarScene
    /// Seed of the query positions.
    package let seed: UInt64
    /// Queries over `scene` at positions drawn from `seed`.
    package init(scene: CalendarScene, seed: UInt64 = 7) {
        self.scene = scene
        self.seed = seed
    }
    /// Rows the last query examined: bounded by the rows a 200 pt band can meet, whatever the loaded days.
    package static let rowsExamined = Metric("rowsExamined", unit: .count, isDeterministic: true)
    /// The query positions' generator and a reused result buffer.
    package struct State {
        var generator: SeededGenerator
        var buffer: [Int] = []
        var rowsExamined = 0
    }
    /// A fresh generator and a buffer with room for any query's result.
    ///
    /// Grown on demand, a warm query allocated whenever its band met more views than any earlier one (once in 24
    /// samples at 30 loaded days, when the query was first measured over 1, 7, 30 and 90 days).
    package func makeState() -> State {
        var state = State(generator: SeededGenerator(seed: seed))
        state.buffer.reserveCapacity(scene.index.frameCount)
        return state
    }
    /// One query; returns the descriptors found.
    package func run(_ state: inout State) -> Int {
        let y = Double(state.generator.index(below: max(1, Int(scene.layout.contentHeight) - 200)))
        state.rowsExamined = scene.index.query(Rect(x: 0, y: y, width: 390, height: 200), into: &state.buffer)
        return state.buffer.count
    }
    /// Rows the last query examined (a level).
    package func counters(_ state: State) -> [CounterReading] {
        [CounterReading(Self.rowsExamined, Double(state.rowsExamined))]
    }
}

/// 100 playback-clock updates at 10 Hz on an injectable ticker, counting view recomputations.
package struct RedrawSubject: MeasurableSubject {
    /// Recomputations of views the playback clock does not feed (0 when dependencies are right).
    package static let unrelatedRecomputations = Metric(
        "unrelatedRecomputations", unit: .count, kind: .correctness, isDeterministic: true)
    /// Recomputations of the playback bar (one an update).
    package static let playbackRecomputations = Metric(
        "playbackRecomputations", unit: .count, kind: .correctness, isDeterministic: true)
    /// Event rows on the screen.
    package let eventCount: Int
    /// Whether event rows wrongly read the playback clock (the bug the probe catches).
    package let wrongDependency: Bool
    /// A screen of `eventCount` rows.
    package init(eventCount: Int = 100, wrongDependency: Bool = false) {
        self.eventCount = eventCount
        self.wrongDependency = wrongDependency
    }
    /// The last run's report.
    package struct State { var report: RedrawProbe.Report? }
    /// No report yet.
    package func makeState() -> State { State() }
    /// 100 updates; returns the unrelated recomputations.
    package func run(_ state: inout State) -> Int {
        let model = CalendarScreenModel(
            events: (0..<eventCount).map { .init(title: "Event \($0)", timeText: "10:00") },
            selectedDay: DayKey(year: 2015, month: 3, day: 2))
        var ticker = ImmediateTicker()
        state.report = RedrawProbe(model: model, wrongDependency: wrongDependency).run(updates: 100, ticker: &ticker)
        return state.report!.unrelatedTotal
    }
    /// The last run's recomputations (levels).
    package func counters(_ state: State) -> [CounterReading] {
        [
            CounterReading(Self.unrelatedRecomputations, Double(state.report?.unrelatedTotal ?? -1)),
            CounterReading(Self.playbackRecomputations, Double(state.report?.recomputations[.playbackBar] ?? 0)),
        ]
    }
}

/// One durable journal append (a dragged event's pending move, flushed to disk).
package struct JournalAppendSubject: MeasurableSubject {
    /// Where the journal file is made.
    package let directory: String
    /// Appends to a fresh journal in `directory`.
    package init(directory: String = NSTemporaryDirectory()) { self.directory = directory }
    /// Records appended so far, and records read back from disk by reopening the journal: equal
    /// unless an acknowledged edit was lost.
    package static let recordsAppended = Metric(
        "recordsAppended", unit: .count, kind: .correctness, isDeterministic: true)
    /// Records read back from the file: equal to the appends acknowledged.
    package static let recordsOnDisk = Metric("recordsOnDisk", unit: .count, kind: .correctness, isDeterministic: true)
    /// Appends acknowledged and records on disk (levels).
    package func counters(_ state: State) -> [CounterReading] {
        // -1 marks a journal that cannot be read: the correctness check then fails, saying so.
        let onDisk = (try? EditJournal(path: state.path).records.count) ?? -1
        return [
            CounterReading(Self.recordsAppended, Double(state.operation)),
            CounterReading(Self.recordsOnDisk, Double(onDisk)),
        ]
    }
    /// The journal and the operations appended.
    package final class State {
        let path: String
        let journal: EditJournal
        var operation = 0
        init(path: String) throws {
            self.path = path
            journal = try EditJournal(path: path)
        }
        deinit { FileManager.default.removeLitter(atPath: path) }
    }
    /// A fresh journal file.
    package func makeState() throws -> State {
        try State(path: directory + "/perfkit-journal-\(UUID().uuidString).log")
    }
    /// One durable append; returns the operation's number.
    package func run(_ state: inout State) throws -> Int {
        state.operation += 1
        try state.journal.append(
            JournalRecord(
                operation: state.operation, status: .pending, eventID: "standup", from: 36_000,
                to: 36_000 + Double(state.operation) * 900))
        return state.operation
    }
}

/// Local actions: switching between Timeline and Week over the loaded window, and opening an event's detail.
package struct LocalActionSubject: MeasurableSubject {
    /// The action measured.
    package enum Action: String, Sendable { case switchView, openDetail }
    /// The scene acted on.
    package let scene: CalendarScene
    /// Switch view or open detail.
    package let action: Action
    /// The action on `scene`.
    package init(scene: CalendarScene, action: Action) {
        self.scene = scene
        self.action = action
    }
    /// What the last run produced: descriptors built (switch view) or detail bytes (open detail).
    package static let produced = Metric("produced", unit: .count, kind: .correctness, isDeterministic: true)
    /// The next target and what the last run produced.
    package struct State {
        var next = 0
        var produced = 0
    }
    /// Starts at the first target.
    package func makeState() -> State { State() }
    /// What the last run produced (a level).
    package func counters(_ state: State) -> [CounterReading] {
        [CounterReading(Self.produced, Double(state.produced))]
    }
    /// One action; returns what it produced.
    package func run(_ state: inout State) -> Int {
        state.produced = perform(&state)
        return state.produced
    }
    private func perform(_ state: inout State) -> Int {
        state.next += 1
        switch action {
        case .switchView:
            let presentation: Presentation = state.next % 2 == 0 ? .timeline : .week
            let layout = CalendarLayout(events: scene.events, grid: scene.layout.grid, presentation: presentation)
            return ViewportIndex(layout.descriptors(events: scene.events)).descriptors.count
        case .openDetail:
            let descriptor = scene.index.descriptors[state.next % scene.index.descriptors.count]
            let content = descriptor.content()
            let occurrences = scene.events.filter { $0.occurrenceID == content.occurrence }
            let formatter = DateFormatter()
            formatter.dateStyle = .full
            formatter.timeStyle = .short
            let detail = occurrences.map {
                "\($0.title)\n\(formatter.string(from: $0.start)) – \(formatter.string(from: $0.end))\n\($0.calendarID)"
            }
            return detail.joined().utf8.count
        }
    }
}
