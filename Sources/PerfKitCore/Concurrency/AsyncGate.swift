import Synchronization

/// Lets one async measurement at a time onto the thread async bodies share (``AsyncRunner``).
///
/// Under `swift test`, tests run in parallel, and two bodies interleaved on one thread would count each other's jobs.
/// Waiters are let in in the order they came.
final class AsyncGate: Sendable {
    // A Mutex: tasks on any thread enter and leave.
    private let state = Mutex<(busy: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    /// Waits until the gate is free, then holds it.
    func enter() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let enteredNow = state.withLock { state in
                if !state.busy {
                    state.busy = true
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if enteredNow { continuation.resume() }
        }
    }

    /// Hands the gate to the next waiter, or frees it.
    func leave() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiters.isEmpty {
                state.busy = false
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }

    /// Runs `body` holding the gate.
    func holding<T>(_ body: () async throws -> T) async throws -> T {
        await enter()
        defer { leave() }
        return try await body()
    }
}
