import Foundation
import PerfKit

#if canImport(Glibc)
    import Glibc
#endif

/// One record of the edit journal.
public struct JournalRecord: Sendable, Codable, Equatable {
    /// What happened to an operation.
    public enum Status: String, Sendable, Codable {
        /// Written before the move is shown; the provider has not answered.
        case pending
        /// The provider accepted the move.
        case confirmed
        /// The provider rejected the move; the display was restored and the operation waits for a retry.
        case rejected
    }
    /// The operation this record is about.
    public var operation: Int
    public var status: Status
    public var eventID: String
    /// Original and requested start, seconds since 1970.
    public var from: Double
    public var to: Double
    public init(operation: Int, status: Status, eventID: String, from: Double, to: Double) {
        self.operation = operation
        self.status = status
        self.eventID = eventID
        self.from = from
        self.to = to
    }
}

/// An append-only journal of edits on disk.
///
/// Each record is one line, `crc32 json\n`, written with a single `write` and flushed with
/// `fsync` before `append` returns. On opening, a torn last record (a crash in the middle of a
/// write) is skipped with a warning and cut off; every record before it is kept. A damaged
/// record anywhere else is an error naming the file and the line.
///
/// A class: it owns a file descriptor.
public final class EditJournal {
    public let path: String
    /// Records read at open plus those appended since, in order.
    public private(set) var records: [JournalRecord] = []
    /// Warnings from opening (for example a skipped torn record).
    public private(set) var warnings: [String] = []
    private let descriptor: Int32

    /// Opens (or creates) the journal at `path`.
    /// - Throws: ``FileError`` for an unreadable file or a damaged record before the last.
    public init(path: String) throws(FileError) {
        self.path = path
        let existing = FileManager.default.contents(atPath: path) ?? Data()
        var goodLength = 0
        var offset = 0
        var lineNumber = 0
        let bytes = [UInt8](existing)
        while offset < bytes.count {
            lineNumber += 1
            guard let newline = bytes[offset...].firstIndex(of: 0x0A) else {
                warnings.append("\(path): line \(lineNumber): torn last record (\(bytes.count - offset) bytes without a newline) skipped")
                break
            }
            let line = Array(bytes[offset..<newline])
            if let record = Self.decode(line) {
                records.append(record)
                goodLength = newline + 1
            } else if newline + 1 == bytes.count {
                warnings.append("\(path): line \(lineNumber): torn last record (checksum mismatch) skipped")
                break
            } else {
                throw FileError(path, "line \(lineNumber): damaged record (checksum or JSON) before the end of the journal")
            }
            offset = newline + 1
        }
        let isNew = !FileManager.default.fileExists(atPath: path)
        let fd = open(path, O_WRONLY | O_CREAT, 0o644)
        guard fd >= 0 else { throw FileError(path, "cannot open journal: \(String(cString: strerror(errno)))") }
        if goodLength < bytes.count {
            _ = ftruncate(fd, off_t(goodLength))
            _ = fsync(fd)
        }
        lseek(fd, off_t(goodLength), SEEK_SET)
        descriptor = fd
        if isNew {
            // A new file's name is durable only once its folder is flushed too.
            let folder = open(URL(fileURLWithPath: path).deletingLastPathComponent().path, O_RDONLY)
            if folder >= 0 {
                _ = fsync(folder)
                close(folder)
            }
        }
    }

    deinit { close(descriptor) }

    /// Appends a record durably: one write, then `fsync`.
    /// - Throws: ``FileError`` when the write or flush fails.
    public func append(_ record: JournalRecord) throws(FileError) {
        let line = Self.encode(record)
        let written = line.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        guard written == line.count else { throw FileError(path, "journal write failed: \(String(cString: strerror(errno)))") }
        guard fsync(descriptor) == 0 else { throw FileError(path, "journal fsync failed: \(String(cString: strerror(errno)))") }
        records.append(record)
    }

    static func encode(_ record: JournalRecord) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = [UInt8]((try? encoder.encode(record)) ?? Data())
        return Array(String(format: "%08x ", CRC32.checksum(json)).utf8) + json + [0x0A]
    }

    static func decode(_ line: [UInt8]) -> JournalRecord? {
        guard line.count > 9, line[8] == 0x20, let crc = UInt32(String(decoding: line[0..<8], as: UTF8.self), radix: 16) else { return nil }
        let json = Array(line[9...])
        guard CRC32.checksum(json) == crc else { return nil }
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
