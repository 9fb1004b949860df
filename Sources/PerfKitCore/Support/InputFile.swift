import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Reads an input file whole, with one-line errors that say what is wrong with the path.
///
/// Missing, a folder, a device, not readable, or over the reader's limit.
///
/// `-` is standard input. A pipe (or a terminal) is read as a stream up to the reader's limit; a
/// device or a socket (`/dev/zero`, `/dev/urandom`) is refused before a byte is read.
public enum InputFile {
    /// The default limit: 1 GiB.
    public static let defaultLimit = 1 << 30

    /// The limit for stored JSON files (results, baselines, manifests): 256 MiB, about 50 times
    /// the largest run file PerfKit has written.
    public static let storedFileLimit = 256 << 20

    /// The limit for plain-text inputs typed or exported by people (numbers, calendar events,
    /// threshold files): 64 MiB.
    public static let textLimit = 64 << 20

    /// How long a read waits for a pipe's writer to send its first bytes: 10 s.
    static let pipeWaitMilliseconds = 10_000

    /// How long a read of a named FIFO waits for a writer to open it: 2 s.
    static let writerWaitMilliseconds = 2_000

    /// Reads `path` (or standard input for `-`).
    /// - Parameters:
    ///   - path: The file.
    ///   - limit: The most bytes read.
    /// - Returns: The content.
    /// - Throws: ``FileError`` naming the file and the problem.
    public static func read(_ path: String, limit: Int = defaultLimit) throws(FileError) -> Data {
        let name = path == "-" ? "standard input" : path
        var info = stat()
        if path != "-" {
            guard stat(path, &info) == 0 else {
                throw FileError(
                    path, errno == ENOENT ? "no such file" : "cannot open: \(String(cString: strerror(errno)))")
            }
            if info.st_mode & S_IFMT == S_IFDIR { throw FileError(path, "is a folder, not a file") }
            if info.st_mode & S_IFMT == S_IFREG && Int(info.st_size) > limit {
                throw FileError(path, "is \(info.st_size) bytes, over the \(limit)-byte limit for an input")
            }
        }
        // Never blocking in open: a named FIFO with no writer would wait for one for ever.
        let fd = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw FileError(name, "not readable: \(String(cString: strerror(errno)))") }
        defer { if fd != 0 { close(fd) } }
        guard fstat(fd, &info) == 0 else { throw FileError(name, "cannot read: \(String(cString: strerror(errno)))") }
        let kind = info.st_mode & S_IFMT
        if kind != S_IFREG && kind != S_IFIFO && isatty(fd) == 0 {
            throw FileError(name, "is \(kind == S_IFSOCK ? "a socket" : "a device"), not a file or a pipe")
        }
        var data = Data()
        var waitedForWriter = false
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {
                    // A pipe with a writer that has not written yet: wait for it, within a limit.
                    var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    if poll(&waiting, 1, Int32(pipeWaitMilliseconds)) == 0 {
                        throw FileError(name, "is a pipe whose writer sent nothing in \(pipeWaitMilliseconds / 1000) s")
                    }
                    continue
                }
                throw FileError(name, "read failed: \(String(cString: strerror(errno)))")
            }
            if n == 0 {
                if data.isEmpty && kind == S_IFIFO && path != "-" && !waitedForWriter {
                    // A named FIFO read before its writer opened it: wait a little for one, then refuse.
                    waitedForWriter = true
                    var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    if poll(&waiting, 1, Int32(writerWaitMilliseconds)) == 0 {
                        throw FileError(name, "is a FIFO with no writer")
                    }
                    continue
                }
                return data
            }
            data.append(contentsOf: chunk[0..<n])
            if data.count > limit {
                throw FileError(name, "more than \(limit) bytes (a device or an endless stream?); refusing to read on")
            }
        }
    }

    /// How deeply a JSON text nests arrays and objects (strings skipped), for the message when a
    /// decoder refuses it.
    /// - Complexity: O(n).
    public static func jsonDepth(_ data: Data) -> Int {
        var depth = 0, deepest = 0, inString = false, escaped = false
        for byte in data {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == 0x5C {
                    escaped = true
                } else if byte == 0x22 {
                    inString = false
                }
                continue
            }
            switch byte {
            case 0x22: inString = true
            case 0x5B, 0x7B:
                depth += 1
                deepest = max(deepest, depth)
            case 0x5D, 0x7D: depth -= 1
            default: break
            }
        }
        return deepest
    }
}
