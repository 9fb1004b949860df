#if Jemalloc && os(Linux) && !Portable
import CJemalloc
#endif

/// Access to jemalloc's statistics when jemalloc is the process allocator.
///
/// With the `Jemalloc` package trait disabled every read reports the metric unavailable.
/// Reads by name cost about 270 ns; MIBs are cached in memory this type owns so that a read
/// never allocates (a MIB in a Swift array would copy on write).
public enum Jemalloc {
    /// Whether this build links jemalloc at all.
    public static var isLinked: Bool {
        #if Jemalloc && os(Linux) && !Portable
        true
        #else
        false
        #endif
    }

    /// Checks, by allocating, that allocations really reach jemalloc.
    /// - Returns: `nil` when they do, otherwise the reason they do not.
    public static func verifyIsProcessAllocator() -> String? {
        #if Jemalloc && os(Linux) && !Portable
        guard let counter = ThreadAllocationCounter() else { return "thread.allocatedp is not readable" }
        let before = counter.allocated
        let block = malloc(4096)
        blackHole(block)  // keeps the optimizer from eliding the malloc/free pair
        let after = counter.allocated
        free(block)
        return after >= before + 4096 ? nil : "a 4 KiB malloc did not reach jemalloc (another allocator interposes)"
        #else
        return MeasurementPlatform.portableReason ?? "built without the Jemalloc trait"
        #endif
    }

    /// Reads a 64-bit statistic by name after refreshing the statistics epoch.
    /// - Parameter name: A mallctl name such as `stats.resident`.
    /// - Returns: The value, or `nil` when unavailable.
    public static func statistic(_ name: String) -> UInt64? {
        #if Jemalloc && os(Linux) && !Portable
        var value: Int = 0
        var size = MemoryLayout<Int>.size
        guard mallctl(name, &value, &size, nil, 0) == 0 else { return nil }
        return UInt64(value)
        #else
        return nil
        #endif
    }

    /// Advances the statistics epoch so that totals are current (about 12 µs here).
    public static func refreshEpoch() {
        #if Jemalloc && os(Linux) && !Portable
        var newEpoch: UInt64 = 1
        var oldEpoch: UInt64 = 0
        var size = MemoryLayout<UInt64>.size
        _ = mallctl("epoch", &oldEpoch, &size, &newEpoch, size)
        #endif
    }

    /// The allocator totals: allocated, active, resident, mapped bytes.
    /// - Returns: The four totals, or `nil` without jemalloc.
    public static func totals() -> (allocated: UInt64, active: UInt64, resident: UInt64, mapped: UInt64)? {
        guard isLinked else { return nil }
        refreshEpoch()
        guard let allocated = statistic("stats.allocated"), let active = statistic("stats.active"),
            let resident = statistic("stats.resident"), let mapped = statistic("stats.mapped")
        else { return nil }
        return (allocated, active, resident, mapped)
    }
}

/// The calling thread's cumulative allocated and freed bytes, through pointers jemalloc keeps
/// per thread: one read is a pointer dereference (2 to 3 ns).
///
/// Only meaningful on the thread that created it.
public struct ThreadAllocationCounter {
    private let allocatedPointer: UnsafeMutablePointer<UInt64>
    private let deallocatedPointer: UnsafeMutablePointer<UInt64>

    /// Creates a counter for the calling thread, or `nil` without jemalloc.
    public init?() {
        #if Jemalloc && os(Linux) && !Portable
        var allocated: UnsafeMutablePointer<UInt64>? = nil
        var deallocated: UnsafeMutablePointer<UInt64>? = nil
        var size = MemoryLayout<UnsafeMutablePointer<UInt64>>.size
        guard mallctl("thread.allocatedp", &allocated, &size, nil, 0) == 0, let allocated else { return nil }
        size = MemoryLayout<UnsafeMutablePointer<UInt64>>.size
        guard mallctl("thread.deallocatedp", &deallocated, &size, nil, 0) == 0, let deallocated else { return nil }
        allocatedPointer = allocated
        deallocatedPointer = deallocated
        #else
        return nil
        #endif
    }

    /// Bytes allocated by this thread since it started, in size-class bytes.
    @inline(__always) public var allocated: UInt64 { allocatedPointer.pointee }
    /// Bytes freed by this thread since it started.
    @inline(__always) public var deallocated: UInt64 { deallocatedPointer.pointee }
}
