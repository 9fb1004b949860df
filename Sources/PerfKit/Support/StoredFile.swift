import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Errors about stored files, each naming the file and the problem in one line.
public struct FileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file concerned.
    public var path: String
    /// What is wrong with it.
    public var problem: String
    /// Creates an error.
    public init(_ path: String, _ problem: String) {
        self.path = path
        self.problem = problem
    }
    public var description: String { "\(path): \(problem)" }
}

/// The first thing read from every stored file.
struct SchemaHeader: Decodable { var schemaVersion: Int }

/// Reading and writing PerfKit's versioned JSON files.
public enum StoredFile {
    /// An encoder with stable key order and readable dates, so stored files diff well.
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        encoder.nonConformingFloatEncodingStrategy = .throw
        return encoder
    }

    /// A decoder matching ``encoder()``.
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// Writes `data` to `path` atomically: a temporary file in the same folder, flushed, then renamed.
    /// A writer killed half-way leaves the old file intact; concurrent writers never interleave.
    /// - Throws: ``FileError`` naming the file.
    public static func writeAtomically(_ data: Data, to path: String) throws(FileError) {
        try writeAllAtomically([(path, data)])
    }

    /// Writes several files as one change: every file is first written in full to a temporary file
    /// beside its target and flushed; only then are they renamed into place, in the order given
    /// (put an index or manifest last). If any write fails, no target is touched.
    /// - Throws: ``FileError`` naming the file that failed.
    public static func writeAllAtomically(_ files: [(path: String, data: Data)]) throws(FileError) {
        var staged: [(temporary: String, path: String)] = []
        for file in files {
            do {
                staged.append((try stage(file.data, for: file.path), file.path))
            } catch {
                for entry in staged { unlink(entry.temporary) }
                throw error
            }
        }
        for (index, entry) in staged.enumerated() where rename(entry.temporary, entry.path) != 0 {
            let reason = String(cString: strerror(errno))
            for later in staged[index...] { unlink(later.temporary) }
            throw FileError(entry.path, "cannot move the new file into place: \(reason)")
        }
    }

    /// Writes `data` in full to a new temporary file in `path`'s folder and flushes it.
    private static func stage(_ data: Data, for path: String) throws(FileError) -> String {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch { throw FileError(path, "cannot create folder \(directory)") }
        let temporary = directory + "/.\(url.lastPathComponent).\(getpid()).\(UInt64.random(in: 0...UInt64.max)).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard fd >= 0 else { throw FileError(path, "cannot create temporary file: \(String(cString: strerror(errno)))") }
        let written = data.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n <= 0 { return false }
                offset += n
            }
            return true
        }
        let synced = fsync(fd) == 0
        close(fd)
        guard written, synced else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw FileError(path, "write failed: \(reason)")
        }
        return temporary
    }

    /// Runs `body` while holding an exclusive advisory lock on `lockPath` (created if needed), so
    /// that read-modify-write cycles of several processes or threads do not interleave.
    /// - Throws: ``FileError`` when the lock cannot be taken, or what `body` throws.
    public static func withExclusiveLock<R>(_ lockPath: String, _ body: () throws(FileError) -> R) throws(FileError) -> R {
        let directory = URL(fileURLWithPath: lockPath).deletingLastPathComponent().path
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let fd = open(lockPath, O_RDWR | O_CREAT, 0o644)
        guard fd >= 0 else { throw FileError(lockPath, "cannot open lock file: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        guard flock(fd, LOCK_EX) == 0 else { throw FileError(lockPath, "cannot lock: \(String(cString: strerror(errno)))") }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }

    /// Encodes `value` as stable JSON.
    /// - Throws: ``FileError`` naming the file it was meant for.
    public static func encode<T: Encodable>(_ value: T, for path: String) throws(FileError) -> Data {
        do { return try encoder().encode(value) + Data("\n".utf8) } catch { throw FileError(path, "cannot encode: \(error)") }
    }

    /// Encodes `value` as stable JSON and writes it atomically.
    /// - Throws: ``FileError`` naming the file.
    public static func write<T: Encodable>(_ value: T, to path: String) throws(FileError) {
        try writeAtomically(try encode(value, for: path), to: path)
    }

    /// Reads a versioned JSON file, checking its `schemaVersion` before decoding the rest.
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - path: The file.
    ///   - supportedVersion: The schema version this code reads.
    /// - Returns: The decoded value.
    /// - Throws: ``FileError`` for a missing, corrupt, truncated or wrong-schema file.
    public static func read<T: Decodable>(_ type: T.Type, from path: String, supportedVersion: Int) throws(FileError) -> T {
        guard FileManager.default.fileExists(atPath: path) else { throw FileError(path, "no such file") }
        guard let data = FileManager.default.contents(atPath: path) else { throw FileError(path, "cannot read file") }
        let header: SchemaHeader
        do { header = try decoder().decode(SchemaHeader.self, from: data) } catch {
            throw FileError(path, "not a PerfKit file or corrupt JSON (no readable schemaVersion)")
        }
        guard header.schemaVersion == supportedVersion else {
            throw FileError(path, "schema version \(header.schemaVersion) is not supported (this perfkit reads version \(supportedVersion))")
        }
        do { return try decoder().decode(T.self, from: data) } catch { throw FileError(path, "corrupt content: \(describe(error))") }
    }

    /// A one-line description of a decoding error.
    public static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch error {
        case .keyNotFound(let key, let context): return "missing field '\(key.stringValue)' at \(path(context).isEmpty ? "top level" : path(context))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context): return "wrong type at \(path(context)): \(context.debugDescription)"
        case .dataCorrupted(let context): return "\(context.debugDescription) at \(path(context).isEmpty ? "top level" : path(context))"
        @unknown default: return "\(error)"
        }
    }
}

extension RunFile {
    /// Reads a run file.
    /// - Throws: ``FileError`` naming the file and the problem.
    public static func read(from path: String) throws(FileError) -> RunFile {
        try StoredFile.read(RunFile.self, from: path, supportedVersion: currentSchemaVersion)
    }

    /// Writes the run file atomically.
    /// - Throws: ``FileError`` naming the file.
    public func write(to path: String) throws(FileError) { try StoredFile.write(self, to: path) }
}
