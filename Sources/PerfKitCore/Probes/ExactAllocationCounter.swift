#if Jemalloc && os(Linux) && !Portable
import CAllocationHooks
import Glibc
import CJemalloc
import Synchronization
#endif

/// Exact allocation and free counts for a body run on the calling thread.
///
/// Counting is exact even while other threads allocate: the measuring thread is bound to a
/// private jemalloc arena with its thread cache disabled, so every request of the body reaches
/// that arena's counters once. One count costs two statistics refreshes (about 25 µs) and the
/// body runs slower without its thread cache, so this runs in a pass of its own, never inside a
/// timed sample.
///
/// `frees` counts frees of blocks that live in the private arena, that is blocks allocated inside
/// exact-count passes; a body that frees objects its set-up allocated does not count those.
public enum ExactAllocationCounter {
    /// Allocation and free counts of one body run.
    public struct Counts: Sendable, Equatable {
        /// Allocation requests (malloc, calloc, realloc, aligned allocations).
        public var mallocs: UInt64
        /// Frees of blocks in the measuring arena, on any thread.
        public var frees: UInt64
        /// Allocations other threads made while a fresh window was open; nil for a pooled one.
        ///
        /// Process-wide: exact only where nothing else runs meanwhile.
        public var otherThreadMallocs: UInt64? = nil
        /// Where the blocks still live at the window's end were allocated (a fresh window's only).
        public var kept: LeakSites? = nil

        /// Allocations made and not freed by this one window's end.
        ///
        /// `mallocs − frees`, less the continuations libdispatch keeps in its cache (``LeakSites/keptByDispatch``).
        ///
        /// Not the leak metric: a value the body returns, a cache filled once or a global replaced each call stays
        /// past one window without leaking. ``leakedPerCall(calls:_:)`` measures what stays per call.
        public var live: Double { Double(mallocs) - Double(frees) - Double(kept?.keptByDispatch ?? 0) }
    }

    /// What stays per call in the steady state, measured across calls.
    public enum Growth: Sendable, Equatable {
        /// Allocations still live per call: (live after 2k calls − live after k) / k, never negative.
        case perCall(Double)
        /// Live allocations fell between k and 2k calls.
        ///
        /// The body freed what was made before the window, so the figure is a measurement error, not a leak (the count
        /// is the fall).
        case fell(Double)
        /// Allocation counts are unavailable.
        case unavailable
    }

    /// Runs `call` 2k times in one window and returns the allocations still live per call between the k-th and the
    /// 2k-th.
    ///
    /// The figure is what a body keeps per call once caches are filled, as swift-nio's `remaining_allocations`.
    ///
    /// `call` must release whatever the body returns before it returns (a returned value released after a window
    /// is not a leak); a global replaced each call, or a cache filled once, reads 0; a two-object cycle made each call
    /// reads 2.
    /// - Parameters:
    ///   - calls: k (at least 1).
    ///   - call: One call of the body, its result released.
    /// - Returns: The allocations still live per call, how they fell, or that counts are unavailable.
    /// - Throws: Whatever `call` throws (the window is closed first).
    public static func leakedPerCall(calls: Int, _ call: () throws -> Void) rethrows -> Growth {
        // No allocation hooks: a synchronous body frees on its own thread, whose cache is off in the window, and the
        // hooks over many calls of an allocation-heavy body were a second exposure to a crash seen with them.
        guard let window = Window.open(fresh: true, hooks: false) else {
            for _ in 0..<2 * max(calls, 1) { try call() }
            return .unavailable
        }
        let k = max(calls, 1)
        var halfway = 0.0
        do {
            for index in 0..<2 * k {
                if index == k { halfway = window.live() }
                try call()
            }
        } catch {
            _ = window.close()
            throw error
        }
        let end = window.live()
        return growth(from: halfway, to: end, calls: k, keptByDispatch: window.close().kept?.keptByDispatch ?? 0)
    }

    /// ``leakedPerCall(calls:_:)`` for an async body (the calling task runs every call, and `settle` after each).
    public static func leakedPerCall(calls: Int, _ call: () async throws -> Void) async rethrows -> Growth {
        guard let window = Window.open(fresh: true) else {
            for _ in 0..<2 * max(calls, 1) { try await call() }
            return .unavailable
        }
        let k = max(calls, 1)
        var halfway = 0.0
        do {
            for index in 0..<2 * k {
                if index == k {
                    // A Dispatch thread may still be freeing what the last call handed it.
                    window.awaitOtherThreadsFrees()
                    halfway = window.live()
                }
                try await call()
            }
        } catch {
            _ = window.close()
            throw error
        }
        window.awaitOtherThreadsFrees()
        let end = window.live()
        return growth(from: halfway, to: end, calls: k, keptByDispatch: window.close().kept?.keptByDispatch ?? 0)
    }

    /// The growth per call, less what libdispatch keeps in its continuation cache (``LeakSites/keptByDispatch``).
    ///
    /// A hand-off's continuation, freed on a Dispatch thread into that thread's cache of up to 1,024, stays live in the
    /// window without leaking. The cache keeps the same number each call until it is full, so the window's share of it
    /// per call is what it kept over all 2k calls, divided by 2k.
    private static func growth(from halfway: Double, to end: Double, calls k: Int, keptByDispatch: Int) -> Growth {
        let grown = (end - halfway) / Double(k) - Double(keptByDispatch) / Double(2 * k)
        return grown >= 0 ? .perCall(grown) : .fell(-grown)
    }

    /// Why exact counts are unavailable, or `nil` when they are available.
    public static var unavailableReason: String? {
        #if Jemalloc && os(Linux) && !Portable
        Arena.pool.withLock { pool in
            if pool.isEmpty, let arena = Arena() { pool.append(arena) }
            return pool.isEmpty ? "jemalloc refused to create a measuring arena" : nil
        }
        #else
        MeasurementPlatform.portableReason ?? "built without the Jemalloc trait; allocation counts are unavailable"
        #endif
    }

    /// Runs `body` once on the calling thread and counts its allocations exactly.
    /// - Parameter body: The code to count.
    /// - Returns: The body's result and the counts, or `nil` counts when unavailable.
    /// - Throws: Whatever `body` throws (the thread's arena and cache are restored first).
    public static func count<R>(_ body: () throws -> R) rethrows -> (result: R, counts: Counts?) {
        guard let window = Window.open() else { return (try body(), nil) }
        do {
            let result = try body()
            return (result, window.close())
        } catch {
            _ = window.close()
            throw error
        }
    }

    /// An open count on one thread.
    ///
    /// Opened and closed on that same thread, with only the counted work between (an async body that runs every job on
    /// one thread, ``AsyncRunner``).
    public struct Window: ~Copyable {
        #if Jemalloc && os(Linux) && !Portable
        fileprivate let arena: Arena
        fileprivate let previousArena: UInt32
        fileprivate let before: Counts
        fileprivate let pooled: Bool
        fileprivate let hooked: Bool
        #endif

        /// Binds the calling thread to a measuring arena with its cache off; nil when unavailable.
        /// - Parameter fresh: Whether to count in a new arena, never used before and not returned
        ///   to the pool after: an object made before the window (by an earlier call, kept in a
        ///   runtime cache) is then not in it, so freeing it later cannot read as a negative leak.
        ///   A new arena costs jemalloc's metadata for it, kept until the process ends; past
        ///   ``Arena/freshLimit`` of them, a pooled arena is used. A fresh window counts the frees
        ///   of its blocks as they are made, on any thread (jemalloc's allocation hooks): another
        ///   thread's cache would return them to the arena's counters only after the window.
        /// - Returns: The open window, or nil when allocation counts are unavailable.
        public static func open(fresh: Bool = false) -> Window? { open(fresh: fresh, hooks: true) }

        /// ``open(fresh:)``, saying whether a fresh window may install jemalloc's allocation hooks.
        public static func open(fresh: Bool, hooks: Bool) -> Window? {
            #if Jemalloc && os(Linux) && !Portable
            let new = fresh ? Arena.fresh() : nil
            guard let arena = new ?? Arena.acquire() else { return nil }
            var previousArena: UInt32 = 0
            var size = MemoryLayout<UInt32>.size
            _ = mallctl("thread.arena", &previousArena, &size, nil, 0)
            var target = arena.index
            _ = mallctl("thread.arena", nil, nil, &target, MemoryLayout<UInt32>.size)
            _ = mallctl("thread.tcache.flush", nil, nil, nil, 0)
            var disabled = false
            _ = mallctl("thread.tcache.enabled", nil, nil, &disabled, MemoryLayout<Bool>.size)
            let before = arena.read()
            // Only a fresh arena: a pooled one would later receive those frees again, from the caches.
            let hooked = new != nil && hooks && Self.hooksAllowed && perfkit_hooks_begin(arena.index) == 0
            return Window(
                arena: arena, previousArena: previousArena, before: before, pooled: new == nil, hooked: hooked)
            #else
            return nil
            #endif
        }

        /// Waits while blocks of the window are still being freed on other threads.
        ///
        /// As long as more were allocated than freed and another free came within the last
        /// ``SettlePolicy/quietFrees`` steps, up to the limit (``SettlePolicy/frees``). A Dispatch thread that resumes
        /// the body frees the block that resumed it just after, while the body may already have returned. Nothing to
        /// wait for without hooks.
        @discardableResult
        package func awaitOtherThreadsFrees() -> SettlePolicy.Outcome {
            #if Jemalloc && os(Linux) && !Portable
            guard hooked else { return SettlePolicy.Outcome(waited: .zero, ranOut: false) }
            var still = 0
            var frees = perfkit_hooks_frees()
            return SettlePolicy.frees.wait {
                guard still < SettlePolicy.quietFrees,
                    Int64(bitPattern: arena.read().mallocs &- before.mallocs) > Int64(frees)
                else { return false }
                let now = perfkit_hooks_frees()
                still = now == frees ? still + 1 : 0
                frees = now
                return true
            }
            #else
            return SettlePolicy.Outcome(waited: .zero, ranOut: false)
            #endif
        }

        /// Whether jemalloc's allocation hooks may be installed: only in a measured process of
        /// `perfkit run`, which runs one test at a time.
        ///
        /// The hooks put every thread on jemalloc's slow path while a window is open; under a
        /// parallel `swift test` a test process crashed inside jemalloc twice in six runs with them
        /// (once a fresh clone's CI), a cause not found. There frees on other threads are counted
        /// late, as before, and a hand-off's leak count is named unavailable.
        static let hooksAllowed =
            ProcessEnvironment.value(MeasuredProcessEnvironment.mode) == MeasuredProcessEnvironment.measureMode

        /// Blocks allocated since the window opened and not freed yet (jemalloc's hooks count frees on any thread;
        /// without
        /// them, the arena's counters).
        public func live() -> Double {
            #if Jemalloc && os(Linux) && !Portable
            let now = arena.read()
            let frees = hooked ? UInt64(perfkit_hooks_frees()) : now.frees &- before.frees
            return Double(now.mallocs &- before.mallocs) - Double(frees)
            #else
            return 0
            #endif
        }

        /// Reads the counts since ``open()`` and restores the thread's arena and cache.
        public consuming func close() -> Counts {
            #if Jemalloc && os(Linux) && !Portable
            var hookCounts: (frees: UInt, otherMallocs: UInt) = (0, 0)
            if hooked { perfkit_hooks_end(&hookCounts.frees, &hookCounts.otherMallocs) }
            let after = arena.read()
            // Named after the counters are read: naming allocates, on this thread, in this arena.
            let kept = hooked ? LeakSites.outstanding().map(LeakSites.init(stacks:)) : nil
            var enabled = true
            _ = mallctl("thread.tcache.enabled", nil, nil, &enabled, MemoryLayout<Bool>.size)
            var previous = previousArena
            _ = mallctl("thread.arena", nil, nil, &previous, MemoryLayout<UInt32>.size)
            if pooled { Arena.release(arena) }
            return Counts(
                mallocs: after.mallocs &- before.mallocs,
                // A table that overflowed (more than 4,096 blocks live) did not see every free: the arena's.
                frees: hooked && kept != nil ? UInt64(hookCounts.frees) : after.frees &- before.frees,
                otherThreadMallocs: hooked ? UInt64(hookCounts.otherMallocs) : nil,
                kept: kept)
            #else
            return Counts(mallocs: 0, frees: 0)
            #endif
        }
    }
}

#if Jemalloc && os(Linux) && !Portable
/// A private measuring arena and the cached MIBs of its counters.
///
/// Each count holds an arena exclusively, so counts taken at once on several threads (parallel
/// tests) never see each other. The MIB buffers are written only during init and read-only
/// afterwards, hence `@unchecked Sendable`.
private final class Arena: @unchecked Sendable {
    /// Arenas not in use. Shared by every thread that counts, so it sits behind a mutex.
    static let pool = Mutex<[Arena]>([])

    static func acquire() -> Arena? {
        if let arena = pool.withLock({ $0.popLast() }) { return arena }
        return Arena()
    }

    static func release(_ arena: Arena) { pool.withLock { $0.append(arena) } }

    /// How many arenas made for one window alone (``ExactAllocationCounter/Window/open(fresh:)``) this process has left
    /// behind.
    ///
    /// Shared by every counting thread, so behind a mutex.
    static let freshMade = Mutex(0)
    /// The most of them a process makes: jemalloc allows 4,095 arenas in all, and each keeps its metadata until the
    /// process ends.
    ///
    /// Past it, windows count in pooled arenas again.
    static let freshLimit = 1_024

    /// A new arena for one window, or nil past ``freshLimit`` (or when jemalloc refuses one).
    static func fresh() -> Arena? {
        let allowed = freshMade.withLock { made -> Bool in
            guard made < freshLimit else { return false }
            made += 1
            return true
        }
        return allowed ? Arena() : nil
    }

    let index: UInt32
    // Four MIBs of `depth` components each: small.nmalloc, large.nmalloc, small.ndalloc, large.ndalloc.
    private let mibs: UnsafeMutablePointer<Int>
    private let depth = 5
    // The `epoch` MIB: refreshing by name converts a String to a C string, which allocates in debug builds.
    private let epochMIB: UnsafeMutablePointer<Int>
    private let epochDepth = 1

    init?() {
        var index: UInt32 = 0
        var size = MemoryLayout<UInt32>.size
        guard mallctl("arenas.create", &index, &size, nil, 0) == 0 else { return nil }
        self.index = index
        mibs = .allocate(capacity: 4 * depth)
        epochMIB = .allocate(capacity: 1)
        var epochLength = epochDepth
        guard mallctlnametomib("epoch", epochMIB, &epochLength) == 0 else { return nil }
        let names = [
            "stats.arenas.0.small.nmalloc", "stats.arenas.0.large.nmalloc",
            "stats.arenas.0.small.ndalloc", "stats.arenas.0.large.ndalloc",
        ]
        for (slot, name) in names.enumerated() {
            var length = depth
            guard mallctlnametomib(name, mibs + slot * depth, &length) == 0, length == depth else { return nil }
            mibs[slot * depth + 2] = Int(index)
        }
    }

    /// Refreshes the statistics epoch, then reads the arena's counters, without allocating.
    func read() -> ExactAllocationCounter.Counts {
        var newEpoch: UInt64 = 1
        var oldEpoch: UInt64 = 0
        var epochSize = MemoryLayout<UInt64>.size
        _ = mallctlbymib(epochMIB, epochDepth, &oldEpoch, &epochSize, &newEpoch, epochSize)
        func value(_ slot: Int) -> UInt64 {
            var value: UInt64 = 0
            var size = MemoryLayout<UInt64>.size
            _ = mallctlbymib(mibs + slot * depth, depth, &value, &size, nil, 0)
            return value
        }
        return .init(mallocs: value(0) &+ value(1), frees: value(2) &+ value(3))
    }
}
#endif
