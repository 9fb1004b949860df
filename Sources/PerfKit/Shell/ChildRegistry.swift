import Foundation
import PerfKitCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The child processes and temporary folders of this process that are alive right now.
///
/// They are kept so an
/// interrupt can end them all and leave nothing behind (``ChildRegistry/terminateAll(signal:)``).
///
/// Foundation starts each child in a process group of its own, and a build starts its compilers
/// in groups of their own, so a Ctrl-C at the terminal reaches only `perfkit`: without this, an
/// interrupted build kept running with parent 1, holding `.build`'s lock.
///
/// Shared mutable state: children are started from the main thread and the signal handler runs on
/// a dispatch queue, so both sets live behind one `Mutex`.
package enum ChildRegistry {
    private struct State {
        var children: Set<Int32> = []
        var folders: Set<String> = []
        var terminating = false
    }
    private static let state = Mutex(State())

    /// Records a started child (its pid is its process group's id).
    /// - Returns: false when an interrupt is already under way (the caller should end the child at once).
    @discardableResult
    package static func started(_ pid: Int32) -> Bool {
        OrphanRecords.record(child: pid)
        return state.withLock { s in
            s.children.insert(pid)
            return !s.terminating
        }
    }

    /// Forgets a child that has been waited for.
    package static func ended(_ pid: Int32) {
        _ = state.withLock { $0.children.remove(pid) }
        OrphanRecords.forget(child: pid)
    }

    /// Records a temporary folder to remove on interrupt.
    package static func created(folder: String) { _ = state.withLock { $0.folders.insert(folder) } }

    /// Forgets a temporary folder its owner removed (or kept on purpose).
    package static func removed(folder: String) { _ = state.withLock { $0.folders.remove(folder) } }

    /// Forwards `signal` to every child's process group, waits, and removes the registered folders.
    ///
    /// Forwards `signal` to every child's process group, waits up to `grace` seconds for each
    /// group to empty (then kills what is left), and removes the registered temporary folders.
    /// - Parameters:
    ///   - signal: The signal received (SIGINT or SIGTERM).
    ///   - grace: Seconds to wait before SIGKILL.
    /// - Returns: The process groups that had to be killed.
    @discardableResult
    package static func terminateAll(signal: Int32, grace: Double = 10) -> Int {
        let (children, folders) = state.withLock { s -> (Set<Int32>, Set<String>) in
            s.terminating = true
            return (s.children, s.folders)
        }
        for pid in children { kill(-pid, signal) }
        var killed = 0
        let deadline = Date().addingTimeInterval(grace)
        for pid in children {
            while groupIsAlive(pid) && Date() < deadline { usleep(20_000) }
            if groupIsAlive(pid) {
                kill(-pid, SIGKILL)
                killed += 1
            }
        }
        // Stopped here, so no later perfkit needs to find them (nor one a child started as the interrupt came).
        OrphanRecords.forgetAll()
        // The owner may be removing the same folder on another thread (its child just ended): one
        // remover then fails on a file the other took, and exiting would stop the other half-way.
        // Try again until the folder is gone.
        for folder in folders {
            for _ in 0..<50 where FileManager.default.fileExists(atPath: folder) {
                FileManager.default.removeLitter(atPath: folder)
                if FileManager.default.fileExists(atPath: folder) { usleep(10_000) }
            }
        }
        return killed
    }

    /// Whether any process of group `pgid` still exists (a zombie leader counts until reaped).
    private static func groupIsAlive(_ pgid: Int32) -> Bool {
        var status: Int32 = 0
        _ = waitpid(pgid, &status, WNOHANG)
        return kill(-pgid, 0) == 0
    }
}
