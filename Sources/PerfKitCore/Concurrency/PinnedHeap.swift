import CPinnedHeap
import Dispatch
import Foundation

/// The heap a counting run's measured work repeats on.
///
/// A jemalloc arena whose memory comes, in order, from one range at a fixed address (`CPinnedHeap`), used by one thread
/// that does the measured work and nothing else (``run(_:)``): every subject's set-up, warm-up, eviction and counted
/// body of the process, in the test's order. That thread's heap, its thread cache and jemalloc's per-thread event
/// counters then evolve the same way in every run and every build of the same measured code, whatever the harness
/// allocated (result files, dump texts whose sizes follow process IDs): code that follows addresses (hash tables seeded
/// by storage addresses, `ObjectIdentifier` keys, orders taken from pointers) counts the same. The type metadata the
/// test instantiates repeat as well, each test case starts on an arena of its own (``startTestCase()``), and the
/// thread's stack has a fixed address.
///
/// Every other thread of a counting process runs with jemalloc's thread cache off
/// (``CountingRun``'s `MALLOC_CONF`), so when the harness frees a block the measured thread
/// allocated (a state dropped at the end of a phase), the block goes back to the pinned arena at
/// that point, not whenever another thread's cache happens to be flushed. Timing runs never use it.
package enum PinnedHeap {
    /// 0 when the arena is ready in this counting process, else why not (``unavailableReason``).
    package static let status: Int32 = SimulatedCounter.isCounting ? perfkit_pinned_heap_prepare() : -4

    /// Why the heap is not pinned here, or nil when it is.
    package static var unavailableReason: String? {
        let unrepeated = perfkit_pinned_heap_unrepeated()
        return switch status {
        case 0:
            if perfkit_pinned_heap_overflowed() != 0 {
                "the pinned range (16 GiB) ran out"
            } else if unrepeated & PERFKIT_UNREPEATED_METADATA != 0 {
                "the Swift runtime's metadata allocator could not be moved to the measured thread's page"
            } else if unrepeated & PERFKIT_UNREPEATED_STACK != 0 {
                "the measured thread's stack address was taken"
            } else if unrepeated & PERFKIT_UNREPEATED_ARENA != 0 {
                "a test case's arena could not be made"
            } else {
                nil
            }
        case -1: "jemalloc is not the process allocator (built without the Jemalloc trait)"
        case -2: "the fixed address range could not be reserved"
        case -3: "jemalloc refused to create the arena"
        default: "not a counting run"
        }
    }

    /// Runs `body` on the measured thread and waits for it: at once when this is the measured thread, or when the heap
    /// is not pinned.
    ///
    /// What `body` returns was allocated there; it is handed back as it is.
    /// - Throws: What `body` throws.
    package static func run<R>(_ body: () throws -> R) throws -> R {
        guard let thread = MeasuredThread.pinned else { return try body() }
        return try thread.run(body)
    }

    /// Runs `body` with the stack at a fixed depth of the measured thread's stack
    /// (``perfkit_pinned_heap_at_fixed_depth``).
    ///
    /// A counted body's stack addresses then repeat across builds whatever the harness's frames above it: code that
    /// follows them (glibc's `strcmp` takes a longer path for a string near a page's end; ICU's locale parsing compares
    /// strings in stack buffers thousands of times a call) counts the same. Elsewhere `body` runs at once.
    static func atFixedDepth<R>(_ body: () -> R) -> R {
        var result: R?
        withoutActuallyEscaping(body) { body in
            var call: () -> Void = { result = body() }
            withUnsafeMutablePointer(to: &call) { pointer in
                perfkit_pinned_heap_at_fixed_depth(
                    { raw in raw!.assumingMemoryBound(to: (() -> Void).self).pointee() }, pointer)
            }
        }
        return result!
    }

    /// Runs harness work (reading a dump, whose size follows process IDs and paths) off the measured thread, so its
    /// allocations never enter the pinned heap.
    ///
    /// On a helper thread when this is the measured thread, else here.
    package static func outside<R>(_ body: () throws -> R) throws -> R {
        guard let thread = MeasuredThread.pinned, thread.isCurrent, let helper = MeasuredThread.helper else {
            return try body()
        }
        return try helper.run(body)
    }

    /// Starts a test case on the measured thread, when called there (else nothing).
    ///
    /// The case gets an arena of its own from the next slot of the pinned range, so what the harness's threads free of
    /// the previous case, whenever they get to it, goes back to that case's arena and never moves where this one
    /// allocates (a parameterized test's second case's first sample moved 0.07% without it); then the Swift runtime's
    /// metadata allocator continues on a page the case mallocs, so the type metadata it instantiates next (key paths'
    /// classes, whose addresses `AnyKeyPath`'s hash takes, the generic types of its set-up) sit at the same addresses
    /// in every run, wherever the harness's threads left the allocator. Called as the test's function starts, with the
    /// harness's thread waiting for it: called when the measured thread started, the harness's metadata of that moment
    /// fell in the page at varying offsets, and a body keyed by key paths moved up to 3.8% between processes.
    package static func startTestCase() {
        guard let thread = MeasuredThread.pinned, thread.isCurrent else { return }
        _ = perfkit_pinned_heap_fresh_arena()
        _ = perfkit_pinned_heap_fresh_metadata_page()
    }

    /// The executor a measured test runs on in a counting process with a pinned heap.
    ///
    /// It is the measured thread, so the test's own set-up, before and between its `measure` calls, is on the pinned
    /// heap too; nil elsewhere.
    package static var testExecutor: (any TaskExecutor)? { MeasuredThread.pinned }
}
