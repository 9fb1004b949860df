import CMeasuredThread
import CPinnedHeap
import Dispatch
import Foundation
import Synchronization

/// A thread of a counting process that runs handed-over work one piece at a time.
///
/// The measured thread (``pinned``: bound to the pinned arena from its start, ``PinnedHeap``), which is also the task
/// executor measured tests run on, and a plain helper (``helper``) for harness work the measured thread must not
/// allocate for. Neither allocates to hand work over: a call's closure lives on the caller's stack, jobs in a ring
/// allocated once, so each thread frees only what it allocated.
final class MeasuredThread: TaskExecutor, @unchecked Sendable {
    // @unchecked: every field is set once in `init`, or is behind `state` (a Mutex, because callers
    // on any thread and the thread itself take and give work), or is a semaphore or the doorbell (each safe to use from
    // any thread).

    /// The measured thread, when this is a counting process with a pinned heap.
    static var pinned: MeasuredThread? { threads?.pinned }
    /// The helper thread (made with the measured one).
    static var helper: MeasuredThread? { threads?.helper }
    /// Both threads, made together and in this order.
    ///
    /// Made apart, whichever was asked for first was made first, its stack and thread identity differed between runs,
    /// and so did the counts of a body keyed by key paths (in 1 of 6 processes).
    private static let threads: (pinned: MeasuredThread, helper: MeasuredThread)? = {
        guard PinnedHeap.status == 0, let pinned = MeasuredThread(pinned: true, reportsIdle: true),
            let helper = MeasuredThread(pinned: false, reportsIdle: false)
        else { return nil }
        return (pinned, helper)
    }()

    /// The thread async bodies run on (``AsyncRunner``).
    ///
    /// The measured thread in a counting process with a pinned heap, else a plain thread of PerfKit's made on first
    /// use; nil when no thread could be started.
    static let asyncBodies: MeasuredThread? = pinned ?? MeasuredThread(pinned: false, reportsIdle: true)

    /// Jobs the ring holds at most; a job enqueued beyond it runs on Dispatch's pool instead.
    static let ringCapacity = 4_096

    private struct State {
        var call: UInt = 0  // the address of a `() -> Void` on the caller's stack, 0 for none
        var head = 0
        var count = 0
        var runningJob = false
        var foreignEnqueues = 0  // jobs enqueued from other threads (a continuation resumed elsewhere)
        var overflows = 0  // jobs sent to Dispatch because the ring was full
    }
    private let state = Mutex(State())
    private let ring = UnsafeMutablePointer<UnownedJob?>.allocate(capacity: MeasuredThread.ringCapacity)
    /// Rung for each handed-over call and job (``perfkit_doorbell_make``).
    ///
    /// A wake-up costs the same instructions whether the thread was asleep yet or not, and the thread async bodies run
    /// on tells the counting shim when it sleeps with nothing queued, so a Dispatch block a body queued runs only then.
    private let ready: UnsafeMutableRawPointer
    private let done = DispatchSemaphore(value: 0)
    private let calls = DispatchSemaphore(value: 1)
    private let thread = Mutex<pthread_t?>(nil)

    private init?(pinned: Bool, reportsIdle: Bool) {
        guard let bell = perfkit_doorbell_make(reportsIdle ? 1 : 0) else { return nil }
        ready = bell
        ring.initialize(repeating: nil, count: Self.ringCapacity)
        let context = Unmanaged.passRetained(Box(owner: self, pinned: pinned)).toOpaque()
        var handle = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        if pinned { _ = perfkit_pinned_heap_thread_stack(&attributes) }
        guard
            pthread_create(
                &handle, &attributes,
                { context in
                    let box = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
                    if box.pinned { _ = perfkit_pinned_heap_bind_this_thread() }
                    box.owner.serve()
                }, context) == 0
        else {
            Unmanaged<Box>.fromOpaque(context).release()
            return nil
        }
        thread.withLock { $0 = handle }
        pthread_detach(handle)
    }

    /// What the new thread is given: its owner and whether to bind to the pinned arena.
    private final class Box {
        let owner: MeasuredThread
        let pinned: Bool
        init(owner: MeasuredThread, pinned: Bool) {
            self.owner = owner
            self.pinned = pinned
        }
    }

    /// Whether the calling thread is this one.
    var isCurrent: Bool { thread.withLock { $0.map { pthread_equal($0, pthread_self()) != 0 } ?? false } }

    /// The thread's loop, for the process's life: a handed-over call, else the next job.
    private func serve() -> Never {
        while true {
            perfkit_doorbell_wait(ready)
            enum Next { case call(UnsafeMutableRawPointer), job(UnownedJob) }
            let next: Next? = state.withLock { s in
                if let call = UnsafeMutableRawPointer(bitPattern: s.call) { return .call(call) }
                guard s.count > 0, let job = ring[s.head] else { return nil }
                ring[s.head] = nil
                s.head = (s.head + 1) % Self.ringCapacity
                s.count -= 1
                s.runningJob = true
                return .job(job)
            }
            switch next {
            case .call(let call):
                call.assumingMemoryBound(to: (() -> Void).self).pointee()
                done.signal()
            case .job(let job):
                perfkit_job_begin()
                job.runSynchronously(on: asUnownedTaskExecutor())
                perfkit_job_end()
                state.withLock { $0.runningJob = false }
            case nil: break
            }
        }
    }

    /// Runs `body` on the thread and waits for it.
    ///
    /// At once when called on the thread, or while the thread runs a job (a test blocked waiting for the caller:
    /// handing over would deadlock).
    func run<R>(_ body: () throws -> R) throws -> R {
        if isCurrent || state.withLock({ $0.runningJob }) { return try body() }
        calls.wait()
        defer { calls.signal() }
        var outcome: Result<R, any Error>?
        withoutActuallyEscaping(body) { body in
            var call: () -> Void = { outcome = Result { try body() } }
            withUnsafeMutablePointer(to: &call) { pointer in
                let address = UInt(bitPattern: pointer)
                state.withLock { $0.call = address }
                perfkit_doorbell_ring(ready)
                done.wait()
                state.withLock { $0.call = 0 }
            }
        }
        return try outcome!.get()
    }

    /// Takes a job of a task that prefers this executor (a measured test and the tasks it starts).
    func enqueue(_ job: consuming ExecutorJob) {
        enqueue(unowned: UnownedJob(job))
    }

    /// Jobs enqueued so far from threads other than this one: work of the body that ran elsewhere
    /// (a Dispatch queue, the pool) and resumed it.
    var foreignEnqueues: Int { state.withLock { $0.foreignEnqueues } }

    /// Jobs sent to Dispatch's threads so far because the ring was full (``Fallback/Kind/ringOverflow``).
    var overflows: Int { state.withLock { $0.overflows } }

    /// Jobs waiting in the ring, plus the one running (what a settle wait watches).
    var pendingJobs: Int { state.withLock { $0.count + ($0.runningJob ? 1 : 0) } }

    /// Takes a job by its unowned handle: one of ours, or one the runtime meant for its global pool
    /// (``GlobalJobRedirect``).
    func enqueue(unowned: UnownedJob) {
        let foreign = !isCurrent
        let queued = state.withLock { s in
            if foreign { s.foreignEnqueues += 1 }
            guard s.count < Self.ringCapacity else {
                s.overflows += 1
                return false
            }
            ring[(s.head + s.count) % Self.ringCapacity] = unowned
            s.count += 1
            return true
        }
        if queued {
            perfkit_doorbell_ring(ready)
        } else {
            let executor = asUnownedTaskExecutor()
            DispatchQueue.global().async { unowned.runSynchronously(on: executor) }
        }
    }
}
