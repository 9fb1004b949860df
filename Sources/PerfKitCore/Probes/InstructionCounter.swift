#if os(Linux)
import CLinux
#endif

#if canImport(Glibc)
import Glibc
#endif

/// Retired user-space instructions of the calling thread through `perf_event_open`.
///
/// Virtual machines without a PMU, and kernels with a strict `perf_event_paranoid`, refuse the
/// counter; the metric is then unavailable with the reason.
public struct InstructionCounter: ~Copyable {
    private let descriptor: Int32

    /// Why the counter cannot be opened on this machine, or `nil` when it can.
    public static let unavailableReason: String? = {
        switch Result(catching: { try InstructionCounter() }) {
        case .success: return nil
        case .failure(let error): return String(describing: error)
        }
    }()

    /// Opens a counter for the calling thread.
    /// - Throws: ``ProbeError/unavailable(_:)`` with the kernel's reason.
    public init() throws(ProbeError) {
        #if os(Linux) && !Portable
        let result = perfkit_open_instructions_counter()
        guard result >= 0 else { throw .unavailable(Self.reason(errno: -result)) }
        descriptor = result
        #else
        throw .unavailable(MeasurementPlatform.portableReason ?? "not on Linux")
        #endif
    }

    /// Why the kernel refused the counter, from the error it gave.
    static func reason(errno: Int32) -> String {
        switch errno {
        case ENOENT, EOPNOTSUPP, ENODEV: "no hardware performance counters (no PMU; typical in a virtual machine)"
        case EACCES, EPERM: "perf_event_open denied (kernel.perf_event_paranoid)"
        default: "perf_event_open failed: \(String(cString: strerror(errno)))"
        }
    }

    /// The instruction count so far, or `nil` when the read fails.
    public func read() -> UInt64? {
        #if os(Linux) && !Portable
        let value = perfkit_read_counter(descriptor)
        return value < 0 ? nil : UInt64(value)
        #else
        return nil
        #endif
    }

    deinit { close(descriptor) }
}

/// Errors from probes.
public enum ProbeError: Error, Sendable, CustomStringConvertible {
    /// The probe cannot work on this machine; the string says why.
    case unavailable(String)
    /// A one-line reason.
    public var description: String {
        switch self {
        case .unavailable(let reason): reason
        }
    }
}
