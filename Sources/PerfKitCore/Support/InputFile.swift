import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Reads an input file whole, with one-line errors that say what is wrong with the path: missing,
/// a folder, not readable, or over a stated size. `-` is standard input. A FIFO or a device is read
/// as a stream, up to the same limit, so `/dev/zero` ends in an error instead of exhausting memory.
public enum InputFile {
    /// The default limit: 1 GiB.
    public static let defaultLimit = 1 << 30

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
        let fd = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileError(name, "not readable: \(String(cString: strerror(errno)))") }
        defer { if fd != 0 { close(fd) } }
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw FileError(name, "read failed: \(String(cString: strerror(errno)))")
            }
            if n == 0 { return data }
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
