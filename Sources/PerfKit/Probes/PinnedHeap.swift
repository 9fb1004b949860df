import CPinnedHeap

/// The heap a counting run's measured bodies allocate from: a jemalloc arena whose memory comes,
/// in order, from one range at a fixed address (`CPinnedHeap`), with the thread cache off
/// (`MALLOC_CONF=tcache:false` in counting processes). A body given the same allocation requests
/// then sees the same addresses in every sample, run and build, so code that follows addresses
/// (hash tables seeded by storage addresses, `ObjectIdentifier` keys) counts the same.
///
/// The measuring thread is bound to the arena only while a subject is set up and while its body
/// runs (``around(_:)``); the harness's own allocations (dump files read, results kept) stay in the
/// thread's usual arena, so their sizes, which vary with process IDs and file contents, never move
/// the body's heap. Timing runs never use it.
package enum PinnedHeap {
    /// 0 when the arena is ready in this counting process, else why not (``unavailableReason``).
    package static let status: Int32 = SimulatedCounter.isCounting ? perfkit_pinned_heap_prepare() : -4

    /// Why the heap is not pinned here, or nil when it is.
    package static var unavailableReason: String? {
        switch status {
        case 0: perfkit_pinned_heap_overflowed() != 0 ? "the pinned range (16 GiB) ran out" : nil
        case -1: "jemalloc is not the process allocator (built without the Jemalloc trait)"
        case -2: "the fixed address range could not be reserved"
        case -3: "jemalloc refused to create the arena"
        default: "not a counting run"
        }
    }

    /// Runs `body` with this thread's allocations in the pinned arena (as it is when unavailable).
    @inline(__always)
    package static func around<R>(_ body: () throws -> R) rethrows -> R {
        guard status == 0 else { return try body() }
        let previous = perfkit_pinned_heap_enter()
        defer { perfkit_pinned_heap_leave(previous) }
        return try body()
    }

    /// Bytes of the range handed out so far.
    package static var used: UInt64 { UInt64(perfkit_pinned_heap_used()) }
}
