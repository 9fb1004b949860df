import CPinnedHeap
import CValgrind
import Foundation

/// Simulated instruction counts of a measured body, from callgrind's client requests.
///
/// A counting run (`perfkit run --counts`) starts the measured test bundle under
/// `valgrind --tool=callgrind --instr-atstart=no --collect-atstart=no --callgrind-out-file=PREFIX`
/// and sets `PERFKIT_CALLGRIND_OUT=PREFIX`. Each counted region turns instrumentation on (for the
/// process) and collection on (for its own thread, and through the preloaded shim for threads the
/// body starts), zeroes the counters, runs the body, turns both off and dumps: callgrind writes
/// `PREFIX.N` (N = 1, 2, … in the order of dumps), whose `totals:` line is the body's instruction
/// count. Setup, warm-up and the harness run uninstrumented, and the harness's other threads are
/// never counted, so a single-threaded body that does not follow heap addresses counts the same to
/// the instruction run after run (78,680, three times, for the 2,000-step loop of `CountingRunTests`).
///
/// Limits: a thread the body starts is counted, in an order valgrind's scheduler picks (a value
/// records how many the body started), and so is a block it queues with `dispatch_async` (the shim
/// carries the region into it, and the region waits for it); other work on threads that already
/// exist (`dispatch_after`, a timer) is not; time spent waiting (system calls, sleeps, locks,
/// cache misses) is not an instruction and is invisible here. Measured: a body running 3,000 steps
/// on a thread of its own counts 134,717–137,896 instructions (thread creation varies); before the
/// shim carried collection into new threads it counted 6,245 (the thread's work was missed).
public enum SimulatedCounter {
    /// Samples per arm and phase in a counting run, unless forced.
    ///
    /// Two, the process's first (which pays the runtime's first use of each type) and one after it, one ABBA block for
    /// two arms. Counts repeat between runs and builds, so a third sample shows nothing new, and each costs about 50
    /// times its native time: the reference arms of the calendar suite's cold artwork and scroll count 640 million
    /// instructions a sample, and with three samples (four, for whole ABBA blocks) they alone took 86 and 48 of the
    /// counting run's 112 s (Evidence.md).
    public static let samplesPerArmAndPhase = 2

    /// The environment variable with the dump prefix callgrind was started with.
    public static let outputVariable = "PERFKIT_CALLGRIND_OUT"

    /// The dump prefix when this process is a counting run under callgrind, else nil.
    public static let outputPrefix: String? = {
        guard perfkit_running_on_valgrind() != 0 else { return nil }
        if let pad = ProcessEnvironment.value(heapPadVariable).flatMap(Int.init), pad > 0 { padHeap(pad) }
        return ProcessEnvironment.value(outputVariable)
    }()

    /// The environment variable that shifts the heap before anything is measured (``padHeap(_:)``).
    public static let heapPadVariable = "PERFKIT_HEAP_PAD"

    /// Allocates and keeps `n` blocks of every small size class, moving the harness's later objects to other addresses.
    ///
    /// Allocates, and keeps for the process's life, `n` blocks of every small size class, so every
    /// later object of the harness's heap sits at another address, and instantiates `n` types, so
    /// the harness's later type metadata does too. The measured thread's heap and metadata do not
    /// move with them (``PinnedHeap``): tests shift the harness's to show that counts of
    /// address-following work stay the same.
    static func padHeap(_ n: Int) {
        for size in stride(from: 16, through: 1_024, by: 16) {
            for _ in 0..<n { _ = malloc(size) }  // never freed, on purpose
        }
        _ = perfkit_shift_metadata_pool(
            Int32(min(n, 60)), unsafeBitCast(Int.self as Any.Type, to: UnsafeRawPointer.self))
    }

    /// Whether this process counts instructions (a counting run under callgrind).
    public static var isCounting: Bool { outputPrefix != nil }

    /// Why simulated instructions are not counted here, or nil in a counting run.
    public static var unavailableReason: String? {
        if isCounting { return nil }
        if perfkit_valgrind_headers_present() == 0 {
            return
                "built without valgrind's headers (apt install valgrind); simulated instructions are counted only in a "
                + "counting run"
        }
        return "simulated: counted only in a counting run (perfkit run --counts)"
    }

    /// Whether a counting process also takes the exact allocation counts, after every counted pass.
    ///
    /// Mallocs, frees, leaked allocations and descriptors, for `abba --counts`, which has no native run beside it.
    public static var countsAllocations: Bool {
        guard isCounting, let value = getenv(MeasuredProcessEnvironment.countAllocations) else { return false }
        return value[0] == 0x31 && value[1] == 0  // "1"
    }

    /// Whether this counting process is a placement trial (``MeasuredProcessEnvironment/placementTrial``).
    ///
    /// It counts the first round of its first measurement's first phase, then ends (``endPlacementTrial()``); the
    /// orchestrator reads those samples from their dumps. Read with `getenv` at each call, never through `ProcessInfo`:
    /// the runner asks mid-test, on the measured thread, and building `ProcessInfo`'s environment there allocated on
    /// the pinned heap and moved 20 of the calendar's 30 count series (the artwork's native warm arm +0.13%).
    public static var isPlacementTrial: Bool {
        guard isCounting, let value = getenv(MeasuredProcessEnvironment.placementTrial) else { return false }
        return value[0] == 0x31 && value[1] == 0  // "1"
    }

    /// Ends a placement trial's process at once, with status 0.
    ///
    /// Its dumps (one per sample, written as each sample ended) are all it is for, and nothing after them may run with
    /// a history that differs from a full process's (a shorter first phase would change every later sample).
    public static func endPlacementTrial() -> Never {
        _exit(0)
    }

    /// The `totals:` (or `summary:`) figure of a callgrind dump: its first event, `Ir`.
    /// - Parameter path: A dump file.
    /// - Returns: The count, or nil when the file has no such line.
    package static func totals(ofDump path: String) -> UInt64? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return totals(ofText: String(decoding: data, as: UTF8.self))
    }

    /// The `totals:` (or `summary:`) figure of a callgrind dump's text.
    package static func totals(ofText text: String) -> UInt64? {
        var summary: UInt64?
        for line in CallgrindTokens(text) {
            if case .totals(let value) = line { return value }
            if case .summary(let value) = line { summary = value }
        }
        return summary
    }
}
