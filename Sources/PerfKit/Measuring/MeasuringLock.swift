import Foundation
import PerfKitCore

#if canImport(Glibc)
import Glibc
#endif

/// One measurement at a time in a package.
///
/// `perfkit run`, `abba`, `bisect` and `calibrate` hold an exclusive `flock` on `.perfkit/measuring.lock` while they
/// build and measure.
///
/// Two measurements at once on one machine each time the other's load, and both would "succeed".
/// The second is refused at once, naming the first (its pid and command, which the holder writes
/// into the lock file). The kernel drops the lock when the holder exits, killed or not, so a lock
/// is never left stale; the file itself stays, as a lock file does.
package enum MeasuringLock {
    /// The lock file, relative to the package root.
    package static let path = ".perfkit/measuring.lock"

    /// Runs `body` holding the lock of the package in `directory`, released when it returns (or when the process ends).
    ///
    /// A folder without `Package.swift` is not locked (nothing is made there): the verb's own check refuses it.
    /// - Parameters:
    ///   - directory: The package root.
    ///   - command: The command holding it, as another run will be told.
    ///   - body: The work done holding the lock.
    /// - Returns: What `body` returns.
    /// - Throws: ``OrchestrationError/cannotDo(_:)`` naming the holder when another process holds
    ///   it; ``FileError`` when the lock file cannot be opened (or is a link, never followed); what
    ///   `body` throws.
    package static func holding<R>(directory: String, command: [String], _ body: () throws -> R) throws -> R {
        guard FileManager.default.fileExists(atPath: directory + "/Package.swift") else { return try body() }
        let fd = try take(directory: directory, command: command)
        defer {
            // Removed while still held, so a run that ended leaves no lock file behind; one that was killed leaves an
            // unlocked file the next run takes.
            _ = unlink(directory + "/" + path)
            close(fd)
        }
        return try body()
    }

    /// Opens and locks the lock file, writing the holder into it; its descriptor.
    private static func take(directory: String, command: [String]) throws -> Int32 {
        // A holder removes the file as it ends: a lock taken on a file removed meanwhile is taken again on the new one.
        for _ in 0..<3 {
            let fd = try takeOnce(directory: directory, command: command)
            var held = stat(), named = stat()
            if fstat(fd, &held) == 0, stat(directory + "/" + path, &named) == 0, held.st_ino == named.st_ino,
                held.st_dev == named.st_dev
            {
                return fd
            }
            close(fd)
        }
        return try takeOnce(directory: directory, command: command)
    }

    /// One attempt of ``take(directory:command:)``.
    private static func takeOnce(directory: String, command: [String]) throws -> Int32 {
        let file = directory + "/" + path
        // A folder that cannot be made fails the lock file's open just below, named.
        try? FileManager.default.createDirectory(atPath: directory + "/.perfkit", withIntermediateDirectories: true)
        let fd = open(file, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else {
            throw FileError(
                file,
                errno == ELOOP
                    ? "is a symbolic link: refusing to follow it" : "cannot open: \(String(cString: strerror(errno)))")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let holder = Self.holder(fd)
            close(fd)
            throw OrchestrationError.cannotDo(
                "another measurement is running in this package (\(holder.isEmpty ? "holder unknown" : holder)); "
                    + "two at once would each time the other's load: wait for it or stop it (lock \(file))")
        }
        let text = "pid \(getpid()): " + command.joined(separator: " ").prefix(200)
        _ = ftruncate(fd, 0)
        _ = text.utf8CString.withUnsafeBufferPointer { pwrite(fd, $0.baseAddress, $0.count - 1, 0) }
        return fd
    }

    /// What the holder wrote: `pid N: perfkit run …`, one line, at most 240 bytes.
    private static func holder(_ fd: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 240)
        let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { return "" }
        return String(decoding: buffer[0..<n], as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
    }
}
