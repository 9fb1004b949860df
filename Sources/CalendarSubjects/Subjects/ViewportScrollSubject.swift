import PerfKit

/// Scrolling a viewport over a calendar scene under one policy, with warm artwork lookups.
///
/// - cold: the first run populates a fresh viewport (reference: every view and its artwork;
///   native: the visible rect plus overscan);
/// - warm: after one scroll pass through the whole content (so artwork lookups hit), one scroll
///   step down: query, diff, reuse, warm artwork lookups; wrapping at the end;
/// - eviction: the artwork cache is emptied before the step.
package struct ViewportScrollSubject: MeasurableSubject {
    /// The scene scrolled.
    package let scene: CalendarScene
    /// Reference or native.
    package let policy: ViewportPolicy
    /// Points scrolled per step.
    package let step: Double

    /// Scrolls `scene` under `policy`, `step` points a run.
    package init(scene: CalendarScene, policy: ViewportPolicy, step: Double = 120) {
        self.scene = scene
        self.policy = policy
        self.step = step
    }

    /// The viewport, its artwork cache and the scroll offset.
    package final class State {
        var viewport: Viewport?
        let cache = ArtworkCache(limits: .init(maxBytes: 256 << 20, maxCount: 20_000))
        var offset = 0.0
        init() {}
    }

    /// Cold, warm and eviction.
    package var phases: [Phase] { Phase.allPhases }
    /// No viewport yet, an empty cache, offset 0.
    package func makeState() -> State { State() }

    /// Populates the viewport (first run) or scrolls one step; returns the live views.
    package func run(_ state: inout State) -> Int {
        if state.viewport == nil {
            var viewport = Viewport(index: scene.index, policy: policy)
            let bound = viewport.scroll(to: visible(state.offset))
            let cells = policy == .reference ? viewport.liveCells : bound
            attachArtwork(cells, state.cache)
            state.viewport = viewport
            return viewport.counters.liveViews
        }
        state.offset += step
        if state.offset + scene.viewportSize.height > scene.layout.contentHeight { state.offset = 0 }
        let bound = state.viewport!.scroll(to: visible(state.offset))
        attachArtwork(bound, state.cache)
        return state.viewport!.counters.liveViews
    }

    /// Empties the artwork cache.
    package func evict(_ state: inout State) { state.cache.removeAll() }

    /// Scrolls once through the whole content, so every image a step can need is cached.
    package func warmUp(_ state: inout State) {
        if state.viewport == nil { blackHole(run(&state)) }
        let start = state.offset
        repeat { blackHole(run(&state)) } while state.offset != start
    }

    /// Live views and consumer bytes (levels); views created and reused and content evaluations (running totals).
    package func counters(_ state: State) -> [CounterReading] {
        let c = state.viewport?.counters ?? ViewportCounters()
        let cache = state.cache.counters
        return [
            CounterReading(CalendarMetrics.liveViews, Double(c.liveViews)),
            CounterReading(CalendarMetrics.viewsCreated, Double(c.viewsCreated), accumulation: .runningTotal),
            CounterReading(CalendarMetrics.viewsReused, Double(c.viewsReused), accumulation: .runningTotal),
            CounterReading(
                CalendarMetrics.contentEvaluations, Double(c.contentEvaluations), accumulation: .runningTotal),
            CounterReading(CalendarMetrics.consumerArtworkBytes, Double(cache.bytesOwnedByConsumers)),
        ]
    }

    func visible(_ offset: Double) -> Rect {
        Rect(x: 0, y: offset, width: scene.viewportSize.width, height: scene.viewportSize.height)
    }

    func attachArtwork(_ cells: [EventCell], _ cache: ArtworkCache) {
        for cell in cells {
            guard let i = cell.descriptorIndex, let content = cell.content else { continue }
            cell.artwork?.release()
            cell.artwork = cache.image(scene.paint(content, frame: scene.index.descriptors[i].frame))
        }
    }
}
