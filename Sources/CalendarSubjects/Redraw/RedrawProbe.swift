import Observation
import Synchronization

/// Counts how often each kind of view recomputes while only the playback clock changes.
///
/// Views are bodies that read the model under `withObservationTracking`; a view recomputes when
/// something it read changes. 100 playback-clock updates must recompute the playback bar 100
/// times and calendar event views zero times; any recomputation of a kind that does not depend
/// on the playback position is reported as unrelated.
package struct RedrawProbe {
    /// The kinds of views on the screen.
    package enum ViewKind: String, Sendable, CaseIterable, Hashable {
        case eventView, playbackBar, dayHeader
    }

    /// What a run of the probe observed.
    package struct Report: Sendable, Equatable {
        /// Recomputations per view kind after the initial render.
        package var recomputations: [ViewKind: Int]
        /// Recomputations of kinds that do not depend on the playback position.
        package var unrelated: [ViewKind: Int]
        /// Total unrelated recomputations.
        package var unrelatedTotal: Int { unrelated.values.reduce(0, +) }
    }

    /// One view on the screen: its kind and, for event views, its row.
    struct View {
        var kind: ViewKind
        var row: Int
    }

    /// Kinds that legitimately depend on the playback position.
    package static let playbackDependents: Set<ViewKind> = [.playbackBar]

    let model: CalendarScreenModel
    /// When `true`, event views also read the playback position: a deliberately wrong dependency.
    let wrongDependency: Bool

    /// Creates a probe over `model`.
    package init(model: CalendarScreenModel, wrongDependency: Bool = false) {
        self.model = model
        self.wrongDependency = wrongDependency
    }

    /// Renders every view once, then applies `updates` clock updates, recomputing only invalidated views.
    ///
    /// Renders every view once, then applies `updates` playback-clock updates at `interval`,
    /// recomputing exactly the views Observation invalidated after each.
    /// - Returns: Recomputations per view kind, and the unrelated ones.
    package func run(updates: Int = 100, interval: Duration = .milliseconds(100), ticker: inout some PlaybackTicker)
        -> Report
    {
        var views: [View] = [View(kind: .playbackBar, row: 0), View(kind: .dayHeader, row: 0)]
        views += model.events.indices.map { View(kind: .eventView, row: $0) }
        let invalidated = InvalidationSet()
        var recomputations: [ViewKind: Int] = [:]
        func render(_ index: Int) {
            let view = views[index]
            withObservationTracking {
                blackHoleString(body(view.kind, view.row))
            } onChange: {
                invalidated.insert(index)
            }
        }
        for index in views.indices { render(index) }
        for _ in 0..<updates {
            ticker.waitForNextTick(interval: interval)
            model.playbackPosition += interval.seconds
            for index in invalidated.drain() {
                recomputations[views[index].kind, default: 0] += 1
                render(index)
            }
        }
        let unrelated = recomputations.filter { !Self.playbackDependents.contains($0.key) }
        return Report(recomputations: recomputations, unrelated: unrelated)
    }

    /// What each view kind reads: its body.
    private func body(_ kind: ViewKind, _ row: Int) -> String {
        switch kind {
        case .playbackBar:
            return "▶ \(Int(model.playbackPosition))s"
        case .dayHeader:
            return model.selectedDay.description
        case .eventView:
            let event = model.events[row]
            let suffix = wrongDependency ? " \(Int(model.playbackPosition))" : ""
            return event.title + " " + event.timeText + suffix
        }
    }
}

/// Views invalidated by Observation; `onChange` may run on any thread, hence the mutex.
private final class InvalidationSet: Sendable {
    private let indices = Mutex<Set<Int>>([])
    func insert(_ index: Int) { indices.withLock { _ = $0.insert(index) } }
    func drain() -> [Int] {
        indices.withLock { set in
            defer { set = [] }; return set.sorted()
        }
    }
}

@inline(never) private func blackHoleString(_ value: String) { _ = value.utf8.count }

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
