import Foundation
import Synchronization

/// Sends the global pool's jobs to the thread async bodies run on while a measured async body runs.
///
/// Sends every job the Swift concurrency runtime would give its global pool to the thread async
/// bodies run on (``MeasuredThread/asyncBodies``), while a measured async body runs in a process
/// of `perfkit run` (tests one at a time).
///
/// A task group's children and the default actors a body calls already run there, through the
/// task executor preference ``AsyncRunner`` sets; an unstructured `Task {}` or `Task.detached {}`
/// does not inherit that preference, and on the pool its work would run on other threads in an
/// order the machine picks (counts that move, allocations on threads no counter sees). With the
/// runtime's enqueue hook (`swift_task_enqueueGlobal_hook`, as swift-nio's and swift-async-algorithms'
/// test executors use it) those jobs join the same thread. Jobs delayed by `Task.sleep` and work on
/// Dispatch queues are not redirected.
package enum GlobalJobRedirect {
    typealias Original = @convention(thin) (UnownedJob) -> Void
    typealias Hook = @convention(thin) (UnownedJob, Original) -> Void

    /// The runtime's hook variable, found at run time (nil when this runtime has none).
    ///
    /// `nonisolated(unsafe)`: a pointer set once; the hook it points to is written only by ``begin()`` and ``end()``,
    /// which a measured body's thread calls one at a time.
    nonisolated(unsafe) private static let slot: UnsafeMutablePointer<Hook?>? = dlsym(
        UnsafeMutableRawPointer(bitPattern: 0), "swift_task_enqueueGlobal_hook"
    ).map { $0.assumingMemoryBound(to: Hook?.self) }

    /// How many begins are open (nested bodies redirect once).
    private static let depth = Mutex(0)

    /// Whether only the jobs enqueued from the measured thread itself are redirected.
    ///
    /// The tasks a body starts, where other tests run in parallel and enqueue jobs of their own; read by the hook,
    /// which cannot capture.
    private static let fromMeasuredThreadOnly = Atomic<Bool>(false)

    /// Whether the runtime's hook can be set here.
    package static var isAvailable: Bool {
        !MeasurementPlatform.isPortable && slot != nil && MeasuredThread.asyncBodies != nil
    }

    /// Starts sending global jobs to the async bodies' thread.
    /// - Parameter onlyFromMeasuredThread: Send only the jobs enqueued from that thread (a `Task {}` the body starts,
    ///   its first job and every job it enqueues from there), leaving other threads' jobs to the pool: for a plain
    ///   `swift test`, where other tests run in parallel. Every global job otherwise (`perfkit run`, one test at a
    ///   time).
    package static func begin(onlyFromMeasuredThread: Bool = false) {
        guard !MeasurementPlatform.isPortable, let slot, MeasuredThread.asyncBodies != nil else { return }
        depth.withLock { depth in
            if depth == 0 {
                fromMeasuredThreadOnly.store(onlyFromMeasuredThread, ordering: .relaxed)
                // A closure literal: the compiler can form a thin function only from one.
                slot.pointee = { job, original in
                    if let thread = MeasuredThread.asyncBodies,
                        !GlobalJobRedirect.fromMeasuredThreadOnly.load(ordering: .relaxed) || thread.isCurrent
                    {
                        thread.enqueue(unowned: job)
                    } else {
                        original(job)
                    }
                }
            }
            depth += 1
        }
    }

    /// Stops sending them (jobs already sent stay where they are).
    package static func end() {
        guard let slot else { return }
        depth.withLock { depth in
            depth = max(0, depth - 1)
            if depth == 0 { slot.pointee = nil }
        }
    }
}
