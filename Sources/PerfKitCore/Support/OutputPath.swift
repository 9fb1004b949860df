import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a command's output goes, decided from what is at the path before anything is written.
///
/// A regular file (or a path that does not exist yet) is replaced atomically. A symbolic link is
/// followed: its target is replaced atomically and the link is kept. Standard output and standard
/// error (`-`, `/dev/stdout`, `/dev/fd/1`, `/proc/self/fd/1`, and the same for 2) are written to
/// the open descriptor. Any other file that is not regular (a device such as `/dev/null` or
/// `/dev/full`, a FIFO, a socket) is opened and written in place, never replaced, with write errors
/// such as "No space left on device" reported. A folder is refused.
public enum OutputPath: Equatable, Sendable {
    /// Replace the regular file at this (resolved) path atomically.
    case regularFile(String)
    /// Write to an already open descriptor (1 or 2).
    case descriptor(Int32)
    /// Open this existing non-regular file and write to it in place.
    case special(String)

    /// How `path` would be written.
    /// - Parameter path: The path as given (`-` is standard output).
    /// - Returns: The resolved destination.
    /// - Throws: ``FileError`` for a folder, a link loop, or a path under something that is not a folder.
    public static func resolve(_ path: String) throws(FileError) -> OutputPath {
        if path == "-" { return .descriptor(1) }
        var current = path
        for _ in 0..<40 {
            if let fd = standardDescriptor(current) { return .descriptor(fd) }
            var info = stat()
            guard lstat(current, &info) == 0 else {
                // Missing: a new regular file, provided its first existing ancestor is a folder.
                try checkParent(of: current, for: path)
                return .regularFile(current)
            }
            switch info.st_mode & S_IFMT {
            case S_IFREG: return .regularFile(current)
            case S_IFDIR: throw FileError(path, "is a folder, not a file")
            case S_IFLNK:
                guard let target = linkTarget(current) else {
                    throw FileError(path, "cannot read the symbolic link \(current)")
                }
                current = target
            default: return .special(current)
            }
        }
        throw FileError(path, "too many levels of symbolic links")
    }

    /// Checks that `path` can be written, before any work whose result would be written there.
    /// - Parameter path: The output path as given.
    /// - Throws: ``FileError`` naming the path and the problem.
    public static func validate(_ path: String) throws(FileError) {
        switch try resolve(path) {
        case .descriptor: return
        case .special(let target):
            guard access(target, W_OK) == 0 else {
                throw FileError(path, "not writable: \(String(cString: strerror(errno)))")
            }
        case .regularFile(let target):
            if access(target, F_OK) == 0 {
                guard access(target, W_OK) == 0 else {
                    throw FileError(path, "not writable: \(String(cString: strerror(errno)))")
                }
            }
            try probeFolder(of: target, for: path)
        }
    }

    /// Creates and removes a file in the nearest existing folder of `target`.
    ///
    /// An atomic write needs one there, and `access` says yes to root for folders no file can be made in (`/proc`), so
    /// the command would find out only after measuring.
    static func probeFolder(of target: String, for path: String) throws(FileError) {
        var folder = URL(fileURLWithPath: target).deletingLastPathComponent().path
        while access(folder, F_OK) != 0, folder != "/" {
            folder = URL(fileURLWithPath: folder).deletingLastPathComponent().path
        }
        let probe = folder + "/.perfkit-probe-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw FileError(path, "cannot create a file in \(folder): \(String(cString: strerror(errno)))")
        }
        close(fd)
        unlink(probe)
    }

    /// Whether two paths name the same existing file (same device and inode, links followed).
    /// - Parameters:
    ///   - a: A path.
    ///   - b: Another path.
    /// - Returns: `true` when both exist and are one file.
    public static func sameFile(_ a: String, _ b: String) -> Bool {
        var x = stat(), y = stat()
        guard stat(a, &x) == 0, stat(b, &y) == 0 else { return false }
        return x.st_dev == y.st_dev && x.st_ino == y.st_ino && (x.st_mode & S_IFMT) == S_IFREG
    }

    /// Refuses an output that is one of the command's inputs (it would be overwritten before or
    /// while it is read).
    /// - Parameters:
    ///   - output: The output path, if any.
    ///   - inputs: The input files.
    /// - Throws: ``FileError`` naming the output.
    public static func refuseOverwriting(_ output: String?, inputs: [String]) throws(FileError) {
        guard let output else { return }
        for input in inputs where sameFile(output, input) {
            throw FileError(output, "is also an input of this command (\(input)); write the output elsewhere")
        }
    }

    /// A companion file's path beside `path`, or nil when `path` is not a regular file.
    ///
    /// A companion file's path beside `path` (`pr.md` → `pr-full.md` with `suffix` `-full.md`), or
    /// nil when `path` is not a regular file (standard output, a device, a FIFO): companions go
    /// beside reports in folders, never beside `/dev/null` or into `/dev`.
    /// - Parameters:
    ///   - path: The main output, as given.
    ///   - suffix: What replaces its extension.
    /// - Returns: The companion's path, or nil.
    public static func companion(of path: String, suffix: String) -> String? {
        guard takesCompanions(path) else { return nil }
        return URL(fileURLWithPath: path).deletingPathExtension().path + suffix
    }

    /// Whether files may go beside `path`: it is (or will be) a regular file, not standard output,
    /// a device, a FIFO or a socket.
    public static func takesCompanions(_ path: String) -> Bool {
        // A path that cannot be resolved is refused where it is written, with its own error.
        if case .regularFile = (try? resolve(path)) ?? .descriptor(1) { return true }
        return false
    }

    /// Checks every file a command will write, companions included, before any work.
    ///
    /// Each must be writable (``validate(_:)``) and none may be one of the command's inputs
    /// (``refuseOverwriting(_:inputs:)``).
    /// - Parameters:
    ///   - outputs: Every path the command will write.
    ///   - inputs: Every file it reads.
    /// - Throws: ``FileError`` naming the first output that cannot be written.
    public static func check(_ outputs: [String], inputs: [String]) throws(FileError) {
        for output in outputs {
            try refuseOverwriting(output, inputs: inputs)
            try validate(output)
        }
    }

    private static func standardDescriptor(_ path: String) -> Int32? {
        switch path {
        case "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1": 1
        case "/dev/stderr", "/dev/fd/2", "/proc/self/fd/2": 2
        default: nil
        }
    }

    /// The target of the link at `path`, absolute or relative to the link's folder.
    private static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, Int(PATH_MAX))
        guard count > 0 else { return nil }
        let target = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if target.hasPrefix("/") { return target }
        return URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(target).path
    }

    /// The first existing ancestor of a missing path must be a folder we may write in.
    private static func checkParent(of path: String, for original: String) throws(FileError) {
        var folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        while true {
            var info = stat()
            if stat(folder.path, &info) == 0 {
                guard info.st_mode & S_IFMT == S_IFDIR else {
                    throw FileError(original, "\(folder.path) is not a folder")
                }
                guard access(folder.path, W_OK) == 0 else {
                    throw FileError(original, "cannot write in \(folder.path)")
                }
                return
            }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { return }
            folder = parent
        }
    }
}
