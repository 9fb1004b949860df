import Foundation

#if os(Linux)
import CLinux
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `write(2)`, named through its module because `StoredFile` has `write` methods of its own.
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(fd, buffer, count)
    #else
    Darwin.write(fd, buffer, count)
    #endif
}

extension StoredFile {
    /// Writes `data` to `path` atomically: a temporary file in the same folder, flushed, then renamed.
    ///
    /// A writer killed half-way leaves the old file intact; concurrent writers never interleave.
    /// - Throws: ``FileError`` naming the file.
    ///
    /// The path is resolved first (``OutputPath``): a symbolic link writes through to its target,
    /// standard output and devices or FIFOs are written in place, a folder is refused; none of them
    /// is ever replaced by a regular file.
    public static func writeAtomically(_ data: Data, to path: String) throws(FileError) {
        switch try OutputPath.resolve(path) {
        case .regularFile(let target): try replaceRegularFile(data, at: target, for: path)
        case .descriptor(let fd): try writeAll(data, to: fd, for: path)
        case .special(let target):
            let fd = open(target, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { throw FileError(path, "cannot open for writing: \(lastError())") }
            defer { close(fd) }
            try writeAll(data, to: fd, for: path)
        }
    }

    /// Writes every byte of `data` to an open descriptor, reporting the first write error.
    private static func writeAll(_ data: Data, to fd: Int32, for path: String) throws(FileError) {
        let failure: String? = data.withUnsafeBytes { buffer -> String? in
            var offset = 0
            while offset < buffer.count {
                let n = systemWrite(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return n < 0 ? lastError() : "short write" }
                offset += n
            }
            return nil
        }
        if let failure { throw FileError(path, "write failed: \(failure)") }
    }

    /// The temporary-file-and-rename path for a regular file (or a new one).
    private static func replaceRegularFile(_ data: Data, at path: String, for original: String) throws(FileError) {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        try createFolder(directory, for: original)
        let temporary = directory + "/.\(URL(fileURLWithPath: path).lastPathComponent).\(uniqueSuffix()).tmp"
        try writeFlushed(data, to: temporary, for: original)
        guard rename(temporary, path) == 0 else {
            let reason = lastError()
            unlink(temporary)
            throw FileError(original, "cannot move the new file into place: \(reason)")
        }
        syncFolder(directory)
    }

    /// Replaces the whole content of `folder` with `files` in one atomic step.
    ///
    /// The new content is written in full and flushed into a hidden staging folder beside
    /// `folder` (`.<name>.staging-…`), which is then exchanged with `folder` by one
    /// `renameat2(RENAME_EXCHANGE)`; the old content is removed afterwards. At every instant
    /// `folder` holds either the old files or the new ones, never a mix, even if the writer is
    /// killed. A staging folder left by a killed writer is removed by the next write. On a file
    /// system that cannot exchange, the old folder is moved aside and the new one renamed into
    /// place (a crash between those two renames leaves the folder missing, its old content aside).
    ///
    /// Writers of one folder must be serialised by the caller (``BaselineStore`` holds a lock).
    /// - Parameters:
    ///   - files: File names inside the folder and their content.
    ///   - folder: The folder to replace; created if missing.
    /// - Throws: ``FileError`` naming the file or folder that failed; `folder` is then unchanged.
    public static func writeFolderAtomically(_ files: [(name: String, data: Data)], to folder: String) throws(FileError)
    {
        let url = URL(fileURLWithPath: folder)
        let parent = url.deletingLastPathComponent().path
        let prefix = ".\(url.lastPathComponent).staging-"
        try createFolder(parent, for: folder)
        for stale in FileManager.default.names(in: parent) where stale.hasPrefix(prefix) {
            FileManager.default.removeLitter(atPath: parent + "/" + stale)
        }
        let staging = parent + "/" + prefix + uniqueSuffix()
        try createFolder(staging, for: folder)
        do {
            for file in files {
                try writeFlushed(file.data, to: staging + "/" + file.name, for: folder + "/" + file.name)
            }
            syncFolder(staging)
            try swapIntoPlace(staging, folder)
        } catch {
            FileManager.default.removeLitter(atPath: staging)
            throw error
        }
        syncFolder(parent)
        // `staging` now holds the old content.
        try? FileManager.default.removeItem(atPath: staging)
    }

    /// Puts the folder `staging` at `folder`: one atomic exchange when `folder` exists.
    private static func swapIntoPlace(_ staging: String, _ folder: String) throws(FileError) {
        guard FileManager.default.fileExists(atPath: folder) else {
            guard rename(staging, folder) == 0 else {
                throw FileError(folder, "cannot move the new folder into place: \(lastError())")
            }
            return
        }
        #if os(Linux)
        let exchanged = perfkit_exchange_paths(staging, folder)
        #else
        // No renameat2 here (macOS has renamex_np, not used yet): the two renames below.
        let exchanged = -ENOSYS
        #endif
        if exchanged == 0 { return }
        guard exchanged == -EINVAL || exchanged == -ENOSYS else {
            throw FileError(
                folder, "cannot exchange the new folder with the old: \(String(cString: strerror(-exchanged)))")
        }
        let aside = staging + ".old"
        guard rename(folder, aside) == 0 else {
            throw FileError(folder, "cannot move the old folder aside: \(lastError())")
        }
        guard rename(staging, folder) == 0 else {
            let reason = lastError()
            _ = rename(aside, folder)
            throw FileError(folder, "cannot move the new folder into place: \(reason)")
        }
        _ = rename(aside, staging)
    }

    /// Runs `body` while holding an advisory lock on `lockPath` (created if needed).
    ///
    /// Exclusive for writers, shared for readers, so that a reader never sees a writer's step half-done and the
    /// read-modify-write cycles of several processes or threads do not interleave.
    /// - Parameters:
    ///   - lockPath: The lock file.
    ///   - shared: Whether to take a shared (reader's) lock. A reader that cannot create the lock
    ///     file (a read-only checkout, where no writer can run either) reads without it.
    ///   - body: The work done under the lock.
    /// - Returns: What `body` returns.
    /// - Throws: ``FileError`` when the lock cannot be taken, or what `body` throws.
    public static func withLock<R>(_ lockPath: String, shared: Bool = false, _ body: () throws(FileError) -> R)
        throws(FileError) -> R
    {
        let directory = URL(fileURLWithPath: lockPath).deletingLastPathComponent().path
        // A folder that cannot be made fails the lock file's open just below, named.
        if !shared { try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
        // Never through a link: a lock planted as a link (dangling or not) would create or open a file
        // wherever it points, outside the store.
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else {
            if errno == ELOOP { throw FileError(lockPath, "the lock file is a symbolic link: refusing to follow it") }
            if shared { return try body() }
            throw FileError(lockPath, "cannot open lock file: \(lastError())")
        }
        defer { close(fd) }
        guard flock(fd, shared ? LOCK_SH : LOCK_EX) == 0 else {
            throw FileError(lockPath, "cannot lock: \(lastError())")
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }

    /// Writes `data` in full to the new file `path` and flushes it to stable storage.
    private static func writeFlushed(_ data: Data, to path: String, for target: String) throws(FileError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileError(target, "cannot create temporary file: \(lastError())") }
        let written = data.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let n = systemWrite(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n <= 0 { return false }
                offset += n
            }
            return true
        }
        let synced = fsync(fd) == 0
        close(fd)
        guard written, synced else {
            let reason = lastError()
            unlink(path)
            throw FileError(target, "write failed: \(reason)")
        }
    }

    /// Flushes a folder's entries (a rename is durable only once its folder is flushed).
    private static func syncFolder(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    private static func createFolder(_ directory: String, for path: String) throws(FileError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch { throw FileError(path, "cannot create folder \(directory)") }
    }

    private static func uniqueSuffix() -> String { "\(getpid()).\(UInt64.random(in: 0...UInt64.max))" }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}
