import Foundation
import PerfKit
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The inter-process lock of an edit journal.
///
/// An exclusive `flock` on a descriptor of its own, taken without waiting, so a second process opening the journal gets
/// one line instead of writing over acknowledged records.
///
/// Inside one process the lock is shared and counted (a relaunch in a test opens the journal
/// again before the old object is gone). A descriptor of its own, because closing a journal's
/// descriptor must not drop the lock while another journal of the file is open. Shared mutable
/// state across threads of the process, hence the `Mutex`.
enum JournalLock {
    /// A file's identity.
    struct Key: Hashable, Sendable {
        var device: UInt64
        var inode: UInt64
    }
    private static let held = Mutex<[Key: (descriptor: Int32, count: Int)]>([:])

    /// Takes (or shares) the lock of the journal file at `path`.
    /// - Throws: ``FileError`` when another process holds it, or it cannot be taken.
    static func acquire(path: String, device: UInt64, inode: UInt64) throws(FileError) {
        let key = Key(device: device, inode: inode)
        let failure: FileError? = held.withLock { locks in
            if let entry = locks[key] {
                locks[key] = (entry.descriptor, entry.count + 1)
                return nil
            }
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else {
                return FileError(path, "cannot open journal to lock it: \(String(cString: strerror(errno)))")
            }
            // A child another thread is spawning holds a copy of every descriptor until it execs
            // (`O_CLOEXEC` closes them only then), and with it this process's own lock on a file
            // it just closed: a few tries over about 100 ms let that copy go. A second writer holds
            // its lock for as long as it runs, and is still refused. (That such a copy failed one CI run
            // is the likely reading, not shown.) The tries hold `held`: another thread taking the
            // same file meanwhile would otherwise be refused by this one's lock as "another process".
            var code: Int32 = 0
            for attempt in 0..<20 {
                if flock(fd, LOCK_EX | LOCK_NB) == 0 { code = 0; break }
                code = errno
                guard code == EWOULDBLOCK, attempt < 19 else { break }
                usleep(5_000)
            }
            guard code == 0 else {
                close(fd)
                if code == EWOULDBLOCK {
                    return FileError(path, "another process has this journal open; one writer at a time")
                }
                return FileError(path, "cannot lock journal: \(String(cString: strerror(code)))")
            }
            locks[key] = (fd, 1)
            return nil
        }
        if let failure { throw failure }
    }

    /// Gives back one share; the last one unlocks.
    static func release(_ key: Key) {
        held.withLock { locks in
            guard let entry = locks[key] else { return }
            if entry.count > 1 {
                locks[key] = (entry.descriptor, entry.count - 1)
            } else {
                close(entry.descriptor)
                locks[key] = nil
            }
        }
    }
}
