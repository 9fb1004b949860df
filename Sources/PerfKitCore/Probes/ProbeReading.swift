/// The operating-system reads behind a timed sample: the monotonic clock, the thread's CPU clock
/// and `getrusage`.
///
/// ``SystemReads`` is the real one. A test passes its own conformer to
/// ``ProbeSet/measureTimed(_:reads:)`` to check what a sample is made of (a fake clock gives exact
/// wall times; a recorder shows the order of the reads around the body). The requirements are
/// static, so the generic call is specialised away in release builds and costs nothing in the
/// timed region.
///
/// Conformers must return monotonic values from the two clocks (never decreasing between calls on
/// one thread) and must not allocate, because the reads sit next to the allocation counters.
public protocol ProbeReading {
    /// Monotonic wall-clock time in nanoseconds.
    static func monotonicNanoseconds() -> UInt64
    /// CPU time of the calling thread in nanoseconds.
    static func threadCPUNanoseconds() -> UInt64
    /// The process's resource usage now.
    static func resourceUsage() -> ResourceUsage
}

/// The operating system's clocks and `getrusage`.
public enum SystemReads: ProbeReading {
    /// The monotonic clock, in nanoseconds.
    @inline(__always)
    public static func monotonicNanoseconds() -> UInt64 { SystemClock.monotonicNanoseconds() }
    /// The calling thread's CPU time, in nanoseconds.
    @inline(__always)
    public static func threadCPUNanoseconds() -> UInt64 { SystemClock.threadCPUNanoseconds() }
    /// The process's `getrusage` figures now.
    @inline(__always)
    public static func resourceUsage() -> ResourceUsage { ResourceUsage.current() }
}
