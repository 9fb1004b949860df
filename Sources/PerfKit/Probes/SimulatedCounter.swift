import CValgrind
import Foundation
import Synchronization

/// Simulated instruction counts of a measured body, from callgrind's client requests.
///
/// A counting run (`perfkit run --counts`) starts the measured test bundle under
/// `valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file=PREFIX` and sets
/// `PERFKIT_CALLGRIND_OUT=PREFIX`. Each counted region then zeroes the counters, turns
/// instrumentation on for the body alone, turns it off and dumps: callgrind writes `PREFIX.N`
/// (N = 1, 2, … in the order of dumps), whose `totals:` line is the body's instruction count.
/// Setup, warm-up and the harness run uninstrumented, so they are never counted. Instrumentation
/// is process-wide (callgrind's collection state is per thread: toggling it, as an earlier version
/// did, left the threads a body starts uncounted; measured, a body running 3,000 steps on a thread
/// of its own counted 6,245 instructions that way and 171,278 this way).
///
/// Limits: callgrind counts every thread that runs while the body does (it runs them one at a
/// time), so a body that starts threads, or a test run in parallel with others, is counted with
/// them and may not repeat exactly (a value records the threads the body started); time spent waiting (system calls, sleeps, locks, cache misses) is not an
/// instruction and is invisible here.
public enum SimulatedCounter {
    /// The environment variable with the dump prefix callgrind was started with.
    public static let outputVariable = "PERFKIT_CALLGRIND_OUT"

    /// The dump prefix when this process is a counting run under callgrind, else nil.
    public static let outputPrefix: String? = {
        guard perfkit_running_on_valgrind() != 0 else { return nil }
        let environment = ProcessInfo.processInfo.environment
        if let pad = environment[heapPadVariable].flatMap(Int.init), pad > 0 { padHeap(pad) }
        return environment[outputVariable]
    }()

    /// The environment variable that shifts the heap before anything is measured (``padHeap(_:)``).
    public static let heapPadVariable = "PERFKIT_HEAP_PAD"

    /// Allocates, and keeps for the process's life, `n` blocks of every small size class, so every
    /// later object sits at another address. A subject whose work depends on addresses (a set of
    /// objects hashed by identity, an order taken from pointers) then counts differently: the
    /// counting run's second process per test uses this to find such series.
    static func padHeap(_ n: Int) {
        for size in stride(from: 16, through: 1_024, by: 16) {
            for _ in 0..<n { _ = malloc(size) }  // never freed, on purpose
        }
    }

    /// Whether this process counts instructions (a counting run under callgrind).
    public static var isCounting: Bool { outputPrefix != nil }

    /// Why simulated instructions are not counted here, or nil in a counting run.
    public static var unavailableReason: String? {
        if isCounting { return nil }
        if perfkit_valgrind_headers_present() == 0 {
            return
                "built without valgrind's headers (apt install valgrind); simulated instructions are counted only in a counting run"
        }
        return "simulated: counted only in a counting run (perfkit run --counts)"
    }

    /// The number of the last dump, process-wide: callgrind numbers dumps per process, and tests
    /// of one process may measure from several threads, so the counter is shared under a lock.
    private static let dumps = Mutex(0)

    /// Runs `body` with collection on and returns its instruction count and the dump's number.
    /// - Parameters:
    ///   - label: Written into the dump's header (`desc: Trigger: Client Request: label`).
    ///   - body: The measured region.
    /// - Returns: The body's result, its count over every thread (nil when the dump cannot be
    ///   read), the dump's number and the threads the body started (``threadsStarted(inDump:)``).
    /// - Throws: What `body` throws (the region is closed first).
    public static func count<R>(label: String, _ body: () throws -> R) rethrows -> (
        result: R, instructions: UInt64?, dump: Int, threads: Int
    ) {
        guard let prefix = outputPrefix else { return (try body(), nil, 0, 0) }
        return try dumps.withLock { last in
            perfkit_count_begin()
            let result: R
            do { result = try body() } catch {
                perfkit_count_end(label)
                last += 1
                throw error
            }
            perfkit_count_end(label)
            last += 1
            let text = FileManager.default.contents(atPath: "\(prefix).\(last)").map {
                String(decoding: $0, as: UTF8.self)
            }
            return (result, text.flatMap(totals(ofText:)), last, text.map(threadsStarted(inDump:)) ?? 0)
        }
    }

    /// The threads started while a dump was counted: the calls into glibc's `start_thread`, which
    /// every new thread makes first. A thread that already existed and ran while the body did (a
    /// pool's worker woken by it) is counted too but not seen here.
    /// - Parameter text: The dump's text.
    /// - Returns: The number of threads started.
    package static func threadsStarted(inDump text: String) -> Int {
        var names: [String: String] = [:]
        var callee = ""
        var started = 0
        for line in text.split(separator: "\n") {
            if line.hasPrefix("cfn=") {
                let value = line.dropFirst(4)
                if value.hasPrefix("("), let close = value.firstIndex(of: ")") {
                    let id = String(value[value.index(after: value.startIndex)..<close])
                    let rest = value[value.index(after: close)...].drop { $0 == " " }
                    if !rest.isEmpty { names[id] = String(rest) }
                    callee = rest.isEmpty ? names[id] ?? "" : String(rest)
                } else {
                    callee = String(value)
                }
            } else if line.hasPrefix("fn=") {
                let value = line.dropFirst(3)
                if value.hasPrefix("("), let close = value.firstIndex(of: ")") {
                    let rest = value[value.index(after: close)...].drop { $0 == " " }
                    if !rest.isEmpty {
                        names[String(value[value.index(after: value.startIndex)..<close])] = String(rest)
                    }
                }
            } else if line.hasPrefix("calls="), callee == "start_thread" {
                started += Int(line.dropFirst(6).split(separator: " ").first ?? "") ?? 0
            }
        }
        return started
    }

    /// The `totals:` (or `summary:`) figure of a callgrind dump: its first event, `Ir`.
    /// - Parameter path: A dump file.
    /// - Returns: The count, or nil when the file has no such line.
    public static func totals(ofDump path: String) -> UInt64? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return totals(ofText: String(decoding: data, as: UTF8.self))
    }

    /// The `totals:` (or `summary:`) figure of a callgrind dump's text.
    static func totals(ofText text: String) -> UInt64? {
        var summary: UInt64?
        for line in text.split(separator: "\n") where line.hasPrefix("totals:") || line.hasPrefix("summary:") {
            let fields = line.split(separator: " ")
            guard fields.count >= 2, let value = UInt64(fields[1]) else { continue }
            if line.hasPrefix("totals:") { return value }
            summary = value
        }
        return summary
    }
}
