import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A record on disk of every child process a `perfkit` process started, so the next `perfkit` stops the ones it left.
///
/// SIGKILL of `perfkit` (a CI job's hard timeout) runs no handler: its children, each in a process group of its own
/// (Foundation's), kept running with parent 1, a test process spinning at 52–99% CPU and valgrind beside it. Each
/// child is recorded as `<tmp>/perfkit-children-<uid>/<perfkit pid>-<child pid>` holding the child's start time (from
/// `/proc`), so a pid the system reused for another process is never signalled. ``stopOrphans()`` runs when any
/// `perfkit` starts.
package enum OrphanRecords {
    /// The folder of records, one per user.
    package static var folder: String {
        FileManager.default.temporaryDirectory.appendingPathComponent("perfkit-children-\(getuid())").path
    }

    /// Records `child`, started by this process.
    static func record(child: Int32) {
        guard let started = startTime(of: child) else { return }
        // A folder or record that cannot be written only means an orphan is not found later: litter, nothing worse.
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try? Data("\(started)\n".utf8).write(to: URL(fileURLWithPath: path(of: child)))
    }

    /// Forgets `child`, waited for; the folder goes when it holds no record.
    static func forget(child: Int32) {
        _ = unlink(path(of: child))
        _ = rmdir(folder)  // fails while another perfkit's records are in it, as it should
    }

    private static func path(of child: Int32) -> String { folder + "/\(getpid())-\(child)" }

    /// Forgets every child this process recorded (its run is ending: an interrupt stopped them all).
    static func forgetAll() {
        let mine = "\(getpid())-"
        for name in FileManager.default.names(in: folder) where name.hasPrefix(mine) {
            _ = unlink(folder + "/" + name)
        }
        _ = rmdir(folder)  // fails while another perfkit's records are in it, as it should
    }

    /// Stops the process groups that a `perfkit` no longer running left behind, and forgets them.
    /// - Returns: How many groups were stopped.
    @discardableResult
    package static func stopOrphans() -> Int {
        // No folder: no records, nothing to sweep.
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return 0 }
        var stopped = 0
        for name in names {
            let parts = name.split(separator: "-")
            guard parts.count == 2, let owner = Int32(parts[0]), let child = Int32(parts[1]) else { continue }
            // Its perfkit still runs: not an orphan.
            if kill(owner, 0) == 0 || errno != ESRCH { continue }
            // A record removed meanwhile (its owner finished) is not an orphan.
            let recorded = (try? String(contentsOfFile: folder + "/" + name, encoding: .utf8)).flatMap {
                UInt64($0.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            if let recorded, startTime(of: child) == recorded {
                kill(-child, SIGKILL)
                kill(child, SIGKILL)
                stopped += 1
            }
            _ = unlink(folder + "/" + name)
        }
        _ = rmdir(folder)  // empty now, unless a running perfkit's records are in it
        return stopped
    }

    /// A process's start time in clock ticks since boot (`/proc/PID/stat`, field 22), or nil when it does not run.
    package static func startTime(of pid: Int32) -> UInt64? {
        // No such process: it is gone.
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        // After the command's closing parenthesis: field 3 (state) onwards; start time is field 22.
        let fields = text[text.index(after: close)...].split(separator: " ")
        return fields.count > 19 ? UInt64(fields[19]) : nil
    }
}
