/// Where a synchronous body's leaked allocations were made.
extension Runner {
    /// The leak sites of every arm and phase whose exact-count pass counted a leak, or nil when none did or sites
    /// cannot be found here.
    ///
    /// One more call of each such arm and phase, from a new state, in a new arena with jemalloc's allocation hooks
    /// (``ExactAllocationCounter/Window/open(fresh:)``), which record the stack of each block the call allocates: those
    /// still live when it returns are named by their allocating function. The hooks are installed only in a
    /// `perfkit run` process, which runs one test at a time; the measured series are not touched.
    /// - Parameters:
    ///   - arms: The measurement's arms.
    ///   - series: Its series, the exact-count pass's `leakedAllocations` among them.
    /// - Returns: The sites, most first within each arm and phase.
    /// - Throws: What a subject's set-up or body throws.
    func leakSites(_ arms: [Arm], _ series: [SampleSeries]) throws -> [LeakSite]? {
        guard ExactAllocationCounter.Window.hooksAllowed else { return nil }
        var sites: [LeakSite] = []
        for leaking in series where leaking.metric == .leakedAllocations && leaking.values.contains(where: { $0 > 0 }) {
            guard let arm = arms.first(where: { $0.name == leaking.arm }) else { continue }
            sites += try leakSites(of: arm.subject, arm: arms.count > 1 ? arm.name : nil, phase: leaking.phase)
        }
        return sites.isEmpty ? nil : sites
    }

    /// One call of `subject` in `phase` after a first, in a hooked window: the functions that allocated what it kept.
    private func leakSites<S: MeasurableSubject>(of subject: S, arm: String?, phase: Phase) throws -> [LeakSite] {
        var slot: AnyObject?
        // One call first, so what a first call fills once (a cache, a lazily made global) is not named.
        let first = try prepare(subject, &slot, phase)
        blackHole(try subject.run(&first.value))
        let box = try prepare(subject, &slot, phase)
        guard let window = ExactAllocationCounter.Window.open(fresh: true) else { return [] }
        do {
            blackHole(try subject.run(&box.value))  // the returned value released inside the window
        } catch {
            _ = window.close()
            throw error
        }
        let counts = window.close()
        return (counts.kept?.sites ?? []).map {
            LeakSite(function: $0.function, perCall: Double($0.count), arm: arm, phase: phase)
        }
    }
}
