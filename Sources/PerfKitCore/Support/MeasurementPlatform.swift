/// Which measurement path this build takes: Linux's, or the portable one.
///
/// Linux measures everything PerfKit has probes for: jemalloc's allocation counters, the kernel's instruction counter,
/// open descriptors, resident memory, counting runs under valgrind and the measured thread's pinned heap. Every other
/// system (macOS above all), and Linux built with the `Portable` trait (so that the path is compiled and tested here),
/// measures wall time and thread CPU only and says what it left out.
public enum MeasurementPlatform {
    #if os(Linux) && !Portable
    /// Whether this build takes the portable path.
    public static let isPortable = false
    #else
    /// Whether this build takes the portable path.
    public static let isPortable = true
    #endif

    /// Why a Linux-only probe is unavailable in this build, or nil on Linux's path.
    public static var portableReason: String? {
        guard isPortable else { return nil }
        #if os(Linux)
        return "not measured on the portable path (built with the Portable trait): wall time and thread CPU only"
        #else
        return "not measured on this system (PerfKit's portable path): wall time and thread CPU only; the other "
            + "probes are Linux's"
        #endif
    }
}
