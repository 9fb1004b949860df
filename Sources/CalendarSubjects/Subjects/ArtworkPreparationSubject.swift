import PerfKit

/// Preparing event artwork for what a policy needs: the reference viewport prepares artwork for
/// every loaded event, the native viewport only for its visible rect plus overscan.
///
/// - cold: a fresh cache, every image rasterized;
/// - warm: the same set again, all hits;
/// - eviction: the cache is emptied first, so every image is rasterized again.
public struct ArtworkPreparationSubject: MeasurableSubject {
    public let scene: CalendarScene
    public let policy: ViewportPolicy
    let needed: [Int]

    public init(scene: CalendarScene, policy: ViewportPolicy, overscan: Double = 200) {
        self.scene = scene
        self.policy = policy
        switch policy {
        case .reference: needed = Array(scene.index.descriptors.indices)
        case .native: needed = scene.index.query(Rect(x: 0, y: -overscan, width: scene.viewportSize.width, height: scene.viewportSize.height + 2 * overscan))
        }
    }

    public struct State {
        let cache = ArtworkCache(limits: .init(maxBytes: 512 << 20, maxCount: 50_000))
        var leases: [ArtworkLease] = []
    }

    public var phases: [Phase] { Phase.allPhases }
    public func makeState() -> State { State() }

    public func run(_ state: inout State) -> Int {
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

    public func evict(_ state: inout State) { state.cache.removeAll() }

    public func counters(_ state: State) -> [CounterReading] {
        let c = state.cache.counters
        return [
            CounterReading(CalendarMetrics.consumerArtworkBytes, Double(c.bytesOwnedByConsumers)),
            CounterReading(CalendarMetrics.cachedArtworkBytes, Double(c.bytesCached)),
            CounterReading(CalendarMetrics.imagesPrepared, Double(c.imagesPrepared), accumulation: .runningTotal),
        ]
    }
}

/// Laying out a window of events (split, pack, axis, frames).
public struct LayoutSubject: MeasurableSubject {
    public let events: [CalendarEvent]
    public let grid: DayGrid
    public let presentation: Presentation

    public init(events: [CalendarEvent], grid: DayGrid, presentation: Presentation) {
        self.events = events
        self.grid = grid
        self.presentation = presentation
    }

    public func makeState() -> Int { 0 }
    public func run(_ state: inout Int) -> Int {
        let start = TestSlowdown.start()
        defer { TestSlowdown.stretch(since: start) }  // test-only; a no-op unless PERFKIT_TEST_SLOWDOWN_PERCENT is set
        let layout = CalendarLayout(events: events, grid: grid, presentation: presentation)
        state = layout.days.reduce(0) { $0 + $1.count }
        return state
    }
    public func counters(_ state: Int) -> [CounterReading] { [CounterReading(CalendarMetrics.segmentsLaidOut, Double(state))] }
}
