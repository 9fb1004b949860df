import PerfKit

/// Preparing event artwork for what a policy needs.
///
/// The reference viewport prepares artwork for every loaded event, the native viewport only for its visible rect plus
/// overscan.
///
/// - cold: a fresh cache, every image rasterized;
/// - warm: the same set again, all hits;
/// - eviction: the cache is emptied first, so every image is rasterized again.
package struct ArtworkPreparationSubject: MeasurableSubject {
    /// The scene whose artwork is prepared.
    package let scene: CalendarScene
    /// Which artwork the policy needs.
    package let policy: ViewportPolicy
    let needed: [Int]

    /// The artwork `policy` needs for `scene`; the native policy's visible rect grows by `overscan` points each way.
    package init(scene: CalendarScene, policy: ViewportPolicy, overscan: Double = 200) {
        self.scene = scene
        self.policy = policy
        switch policy {
        case .reference: needed = Array(scene.index.descriptors.indices)
        case .native:
            needed = scene.index.query(
                Rect(
                    x: 0, y: -overscan, width: scene.viewportSize.width,
                    height: scene.viewportSize.height + 2 * overscan))
        }
    }

    /// A cache and the leases of the last run.
    package struct State {
        let cache = ArtworkCache(limits: .init(maxBytes: 512 << 20, maxCount: 50_000))
        var leases: [ArtworkLease] = []
    }

    /// Cold, warm and eviction.
    package var phases: [Phase] { Phase.allPhases }
    /// An empty cache.
    package func makeState() -> State { State() }

    /// Releases the last run's leases and leases every needed image; returns their bytes.
    package func run(_ state: inout State) -> Int {
        let start = TestSlowdown.start()
        defer { TestSlowdown.stretch(since: start) }  // test-only; a no-op unless PERFKIT_TEST_SLOWDOWN_PERCENT is set
        for lease in state.leases { lease.release() }
        state.leases.removeAll(keepingCapacity: true)
        var bytes = 0
        for i in needed {
            let lease = state.cache.image(scene.paint(scene.index.descriptors[i]))
            bytes &+= lease.artwork.byteCount
            state.leases.append(lease)
        }
        return bytes
    }

    /// Empties the cache.
    package func evict(_ state: inout State) { state.cache.removeAll() }

    /// Images prepared (a running total) and bytes cached and owned (levels).
    package func counters(_ state: State) -> [CounterReading] {
        let c = state.cache.counters
        return [
            CounterReading(CalendarMetrics.consumerArtworkBytes, Double(c.bytesOwnedByConsumers)),
            CounterReading(CalendarMetrics.cachedArtworkBytes, Double(c.bytesCached)),
            CounterReading(CalendarMetrics.imagesPrepared, Double(c.imagesPrepared), accumulation: .runningTotal),
        ]
    }
}

/// Laying out a window of events (split, pack, axis, frames).
package struct LayoutSubject: MeasurableSubject {
    /// The events laid out.
    package let events: [CalendarEvent]
    /// The days.
    package let grid: DayGrid
    /// Timeline or week.
    package let presentation: Presentation

    /// Lays `events` out over `grid`.
    package init(events: [CalendarEvent], grid: DayGrid, presentation: Presentation) {
        self.events = events
        self.grid = grid
        self.presentation = presentation
    }

    /// Segments laid out by the last run.
    package func makeState() -> Int { 0 }
    /// One layout; returns the segments laid out.
    package func run(_ state: inout Int) -> Int {
        let start = TestSlowdown.start()
        defer { TestSlowdown.stretch(since: start) }  // test-only; a no-op unless PERFKIT_TEST_SLOWDOWN_PERCENT is set
        let layout = CalendarLayout(events: events, grid: grid, presentation: presentation)
        state = layout.days.reduce(0) { $0 + $1.count }
        return state
    }
    /// Segments laid out (a level).
    package func counters(_ state: Int) -> [CounterReading] {
        [CounterReading(CalendarMetrics.segmentsLaidOut, Double(state))]
    }
}
