#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Direct reads of the operating system's clocks, in nanoseconds.
///
/// `CLOCK_MONOTONIC` costs about 30 ns here (vDSO); the CPU-time clocks are real system calls
/// (0.7 to 0.9 µs), so they are read outside the bracket of monotonic reads.
public enum SystemClock {
    /// Monotonic wall-clock time in nanoseconds since an arbitrary point.
    @inline(__always)
    public static func monotonicNanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// CPU time consumed by the calling thread, in nanoseconds.
    @inline(__always)
    public static func threadCPUNanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }
}

/// A snapshot of `getrusage(RUSAGE_SELF)`: process CPU times, context switches, page faults, peak RSS.
public struct ResourceUsage: Sendable, Equatable {
    /// User CPU time in nanoseconds.
    public var userCPUNanoseconds: UInt64
    /// System CPU time in nanoseconds.
    public var systemCPUNanoseconds: UInt64
    /// Voluntary plus involuntary context switches.
    public var contextSwitches: UInt64
    /// Minor plus major page faults.
    public var pageFaults: UInt64
    /// Peak resident set size in bytes.
    public var peakResidentBytes: UInt64

    /// A snapshot with the given values (tests and fakes; ``current()`` reads the real one).
    public init(
        userCPUNanoseconds: UInt64, systemCPUNanoseconds: UInt64, contextSwitches: UInt64, pageFaults: UInt64,
        peakResidentBytes: UInt64
    ) {
        self.userCPUNanoseconds = userCPUNanoseconds
        self.systemCPUNanoseconds = systemCPUNanoseconds
        self.contextSwitches = contextSwitches
        self.pageFaults = pageFaults
        self.peakResidentBytes = peakResidentBytes
    }

    /// Reads the current process's resource usage.
    public static func current() -> ResourceUsage {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        let peakScale: UInt64 = 1024  // ru_maxrss is in KiB on Linux
        #else
        getrusage(RUSAGE_SELF, &usage)
        let peakScale: UInt64 = 1
        #endif
        func ns(_ tv: timeval) -> UInt64 { UInt64(tv.tv_sec) * 1_000_000_000 + UInt64(tv.tv_usec) * 1_000 }
        return ResourceUsage(
            userCPUNanoseconds: ns(usage.ru_utime),
            systemCPUNanoseconds: ns(usage.ru_stime),
            contextSwitches: UInt64(usage.ru_nvcsw + usage.ru_nivcsw),
            pageFaults: UInt64(usage.ru_minflt + usage.ru_majflt),
            peakResidentBytes: UInt64(usage.ru_maxrss) * peakScale
        )
    }
}

/// Reads the resident set size from `/proc/self/statm` into a stack buffer, without allocating.
public enum ResidentMemory {
    /// The process's resident set in bytes, or `nil` where `/proc/self/statm` cannot be read.
    public static func currentBytes() -> UInt64? {
        #if os(Linux) && !Portable
        let fd = open("/proc/self/statm", O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { buffer -> UInt64? in
            let count = read(fd, buffer.baseAddress, 127)
            guard count > 0 else { return nil }
            // Fields: size resident shared text lib data dt (in pages). Take the second.
            var index = 0
            while index < count && buffer[index] != 0x20 { index += 1 }
            index += 1
            var pages: UInt64 = 0
            var digits = 0
            while index < count, buffer[index] >= 0x30, buffer[index] <= 0x39 {
                pages = pages * 10 + UInt64(buffer[index] - 0x30)
                index += 1
                digits += 1
            }
            guard digits > 0 else { return nil }
            return pages * UInt64(sysconf(Int32(_SC_PAGESIZE)))
        }
        #else
        return nil
        #endif
    }
}

/// The smallest per-sample times a comparison judges.
///
/// A monotonic clock read costs 20–30 ns here (`perfkit doctor`), so a sample under 100 × that
/// is mostly the clock's own cost and quantisation; a CPU-time read is a real system call of
/// about 1 µs, so thread CPU under 10 µs a sample is below its resolution. Such rows are shown
/// and marked, never judged.
public enum ClockResolution {
    /// Wall-clock samples under this (nanoseconds) are "at clock resolution": 100 × a 25 ns read.
    public static let wallJudgeable: Double = 2_500
    /// Thread-CPU samples under this (nanoseconds) are below the CPU clock's resolution.
    public static let cpuJudgeable: Double = 10_000
}
