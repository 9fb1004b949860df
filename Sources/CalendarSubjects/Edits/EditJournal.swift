import Foundation
import PerfKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One record of the edit journal.
package struct JournalRecord: Sendable, Codable, Equatable {
    /// What happened to an operation.
    package enum Status: String, Sendable, Codable {
        /// Written before the move is shown; the provider has not answered.
        case pending
        /// The provider accepted the move.
        case confirmed
        /// The provider rejected the move; the display was restored and the operation waits for a retry.
        case rejected
    }
    /// The operation this record is about.
    package var operation: Int
    /// Pending, confirmed or rejected.
    package var status: Status
    /// The event moved.
    package var eventID: String
    /// Original and requested start, seconds since 1970.
    package var from: Double
    /// Its new start (seconds since 1970).
    package var to: Double
    /// A record.
    package init(operation: Int, status: Status, eventID: String, from: Double, to: Double) {
        self.operation = operation
        self.status = status
        self.eventID = eventID
        self.from = from
        self.to = to
    }
}

/// An append-only journal of edits on disk.
///
/// Each record is one line, `crc32 json\n`, written at the end of the verified length with one
/// positioned write and flushed with `fsync` before `append` returns. A failed or partial append
/// is cut back off, so the file is exactly as it was and the next append starts clean.
///
/// On opening, only an incomplete last line (bytes without a closing newline: a crash in the
/// middle of a write) counts as a torn tail; it is skipped with a warning and cut off. Any other
/// damaged line, the last one included, is an error naming the file and the line: a killed write
/// cannot produce a complete line with a bad checksum. A journal that cannot be opened for
/// reading and writing is an error, never an empty journal.
///
/// A class: it owns a file descriptor.
package final class EditJournal {
    /// The journal file.
    package let path: String
    /// Records read at open plus those appended since, in order.
    package private(set) var records: [JournalRecord] = []
    /// Warnings from opening (for example a skipped torn record).
    package private(set) var warnings: [String] = []
    private let descriptor: Int32
    private let lockKey: JournalLock.Key
    /// Length of the file up to the end of the last acknowledged record.
    private var verifiedLength: off_t

    /// Opens (or creates) the journal at `path`.
    /// - Parameter path: The journal file; created with mode 0644 when missing.
    /// - Throws: ``FileError`` for a file that cannot be opened or read, or a damaged record.
    package init(path: String) throws(FileError) {
        self.path = path
        let isNew = !FileManager.default.fileExists(atPath: path)
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw FileError(path, "cannot open journal for reading and writing: \(String(cString: strerror(errno)))")
        }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw FileError(path, "not a regular file; a journal must be one")
        }
        guard info.st_size <= Self.maximumBytes else {
            close(fd)
            throw FileError(
                path, "journal is \(info.st_size) bytes, over the \(Self.maximumBytes)-byte limit; refusing to read it")
        }
        // One writer at a time, across processes: two appenders at one verified end would write over
        // each other's acknowledged records. Held until the last journal of this file in this process closes.
        do { try JournalLock.acquire(path: path, device: UInt64(info.st_dev), inode: UInt64(info.st_ino)) } catch {
            close(fd)
            throw error
        }
        let key = JournalLock.Key(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        lockKey = key
        var opened = false
        defer { if !opened { JournalLock.release(key) } }  // a journal that fails to open holds no lock
        let bytes: [UInt8]
        do { bytes = try Self.readAll(fd) } catch {
            close(fd)
            throw FileError(path, "cannot read journal: \(String(cString: strerror(error.code)))")
        }
        let parsed: Parsed
        do { parsed = try Self.parse(bytes, path: path) } catch {
            close(fd)
            throw error
        }
        let goodLength = parsed.goodLength
        warnings = parsed.warnings
        records = parsed.records
        if goodLength < bytes.count {
            guard ftruncate(fd, off_t(goodLength)) == 0, fsync(fd) == 0 else {
                let code = errno
                close(fd)
                throw FileError(path, "cannot cut off the torn last record: \(String(cString: strerror(code)))")
            }
        }
        descriptor = fd
        verifiedLength = off_t(goodLength)
        opened = true
        if isNew { Self.syncFolder(of: path) }
    }

    /// The records of a journal's bytes, up to the end of its last complete line.
    private struct Parsed {
        /// The records, in order.
        var records: [JournalRecord] = []
        /// The length up to the end of the last complete record.
        var goodLength = 0
        /// A skipped torn last record, when there is one.
        var warnings: [String] = []
    }

    /// Reads every complete line of `bytes`; an incomplete last line is skipped with a warning.
    /// - Throws: ``FileError`` naming the line of a damaged record.
    private static func parse(_ bytes: [UInt8], path: String) throws(FileError) -> Parsed {
        var parsed = Parsed()
        var offset = 0
        var lineNumber = 0
        while offset < bytes.count {
            lineNumber += 1
            guard let newline = bytes[offset...].firstIndex(of: 0x0A) else {
                parsed.warnings.append(
                    "\(path): line \(lineNumber): torn last record "
                        + "(\(bytes.count - offset) bytes without a newline) skipped"
                )
                break
            }
            guard let record = decode(Array(bytes[offset..<newline])) else {
                let place = newline + 1 == bytes.count ? "the last record, complete but" : "a record before the end,"
                throw FileError(
                    path, "line \(lineNumber): damaged record (\(place) failing its checksum or JSON); refusing to open"
                )
            }
            parsed.records.append(record)
            parsed.goodLength = newline + 1
            offset = newline + 1
        }
        return parsed
    }

    /// Flushes the folder of a new file: its name is durable only once its folder is flushed too.
    private static func syncFolder(of path: String) {
        let folder = open(URL(fileURLWithPath: path).deletingLastPathComponent().path, O_RDONLY)
        if folder >= 0 {
            _ = fsync(folder)
            close(folder)
        }
    }

    deinit {
        close(descriptor)
        JournalLock.release(lockKey)
    }

    /// The largest journal opened (64 MiB, about 500,000 records): a journal is read whole into memory.
    package static let maximumBytes: off_t = 64 << 20

    /// Appends a record durably: one positioned write at the verified end, then `fsync`.
    ///
    /// On failure the file is truncated back to its length before the call, so a partial write
    /// never glues its fragment to the next record.
    /// - Parameter record: The record to append.
    /// - Throws: ``FileError`` with the real cause when the write or flush fails; the journal is then unchanged.
    package func append(_ record: JournalRecord) throws(FileError) {
        let line = Self.encode(record)
        let written = line.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, verifiedLength) }
        let writeError = errno
        if written != line.count {
            let cause =
                written < 0 ? String(cString: strerror(writeError)) : "short write (\(written) of \(line.count) bytes)"
            throw FileError(path, "journal write failed: \(cause)\(rollBack())")
        }
        guard fsync(descriptor) == 0 else {
            let cause = String(cString: strerror(errno))
            throw FileError(path, "journal fsync failed: \(cause)\(rollBack())")
        }
        verifiedLength += off_t(line.count)
        records.append(record)
    }

    /// Cuts the file back to its verified length; returns a note when even that failed.
    private func rollBack() -> String {
        if ftruncate(descriptor, verifiedLength) == 0 { return "; the record was not written" }
        return
            "; cutting the fragment back off failed too (\(String(cString: strerror(errno)))), reopen the "
            + "journal to recover"
    }

    /// Reads a whole file from offset 0 through its descriptor.
    private static func readAll(_ fd: Int32) throws(ErrnoError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var offset: off_t = 0
        while true {
            let n = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ErrnoError(code: errno)
            }
            if n == 0 { return bytes }
            bytes += chunk[0..<n]
            offset += off_t(n)
        }
    }

    /// A failed system call's `errno`.
    private struct ErrnoError: Error { var code: Int32 }

    static func encode(_ record: JournalRecord) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // A record of strings and numbers: encoding cannot fail.
        let json = [UInt8]((try? encoder.encode(record)) ?? Data())
        return Array(String(format: "%08x ", CRC32.checksum(json)).utf8) + json + [0x0A]
    }

    static func decode(_ line: [UInt8]) -> JournalRecord? {
        guard line.count > 9, line[8] == 0x20, let crc = UInt32(String(decoding: line[0..<8], as: UTF8.self), radix: 16)
        else { return nil }
        let json = Array(line[9...])
        guard CRC32.checksum(json) == crc else { return nil }
        // A torn last line (a crash mid-append) is not a record: recovery stops there.
        return try? JSONDecoder().decode(JournalRecord.self, from: Data(json))
    }
}

/// CRC-32 (IEEE), for journal records.
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes { c = table[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }
}
