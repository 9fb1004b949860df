import Foundation

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
    /// One line: the file (escaped and cut, ``shown(_:)``), then the problem.
    public var description: String { "\(Self.shown(path)): \(problem)" }

    /// Longest name or path a message shows whole.
    public static let shownLimit = 300

    /// `text` as one line: control characters escaped, cut after ``shownLimit`` characters.
    ///
    /// `text` as one line: control characters escaped (`\n`, `\u{1B}`), cut after ``shownLimit``
    /// characters with the full length said, so a hostile name never splits or floods a message.
    public static func shown(_ text: String) -> String {
        let count = text.unicodeScalars.count
        let kept = count > shownLimit ? String(String.UnicodeScalarView(text.unicodeScalars.prefix(shownLimit))) : text
        let out = escapingControls(kept)
        return count > shownLimit ? out + "… (\(count) characters)" : out
    }

    /// `text` with its control characters escaped (`\n`, `\u{1B}`), but those in `kept`.
    ///
    /// The Unicode line and paragraph separators too: the one escape for every name and line PerfKit shows.
    public static func escapingControls(_ text: String, kept: Set<Unicode.Scalar> = []) -> String {
        func escaped(_ scalar: Unicode.Scalar) -> Bool {
            !kept.contains(scalar)
                && (scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}")
        }
        guard text.unicodeScalars.contains(where: escaped) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if escaped(scalar) {
                out.append(contentsOf: scalar.escaped(asASCII: true).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }
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

    /// Encodes `value` as stable JSON.
    /// - Throws: ``FileError`` naming the file it was meant for.
    public static func encode<T: Encodable>(_ value: T, for path: String) throws(FileError) -> Data {
        do { return try encoder().encode(value) + Data("\n".utf8) } catch let EncodingError.invalidValue(value, context)
        {
            let place = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            throw FileError(
                path, "cannot write \(value) at \(place.isEmpty ? "top level" : place) as JSON (a non-finite number)")
        } catch { throw FileError(path, "cannot encode: \(error)") }
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
    /// - Throws: ``FileError`` for a missing, corrupt, truncated or wrong-schema file, or one whose
    ///   series fail validation (empty, unequal label lengths, non-finite values, unknown units).
    public static func read<T: Decodable>(_ type: T.Type, from path: String, supportedVersion: Int) throws(FileError)
        -> T
    {
        try read(type, from: path, supportedVersions: supportedVersion...supportedVersion)
    }

    /// Reads a versioned JSON file whose schema version may be any of `supportedVersions`.
    ///
    /// Newer versions only add optional fields, so older files decode unchanged.
    /// - Throws: ``FileError`` as ``read(_:from:supportedVersion:)``.
    public static func read<T: Decodable>(_ type: T.Type, from path: String, supportedVersions: ClosedRange<Int>)
        throws(FileError) -> T
    {
        let data = try InputFile.read(path, limit: InputFile.storedFileLimit)
        let header: SchemaHeader
        do { header = try decoder().decode(SchemaHeader.self, from: data) } catch {
            let depth = InputFile.jsonDepth(data)
            if depth > 256 {
                throw FileError(
                    path,
                    "JSON nested \(depth) levels deep; no PerfKit file nests more than a few, and the reader "
                        + "stops at 512"
                )
            }
            throw FileError(path, "not a PerfKit file or corrupt JSON (no readable schemaVersion)")
        }
        guard supportedVersions.contains(header.schemaVersion) else {
            let readable =
                supportedVersions.count == 1
                ? "version \(supportedVersions.lowerBound)"
                : "versions \(supportedVersions.lowerBound) to \(supportedVersions.upperBound)"
            throw FileError(
                path, "schema version \(header.schemaVersion) is not supported (this perfkit reads \(readable))")
        }
        let value: T
        do { value = try decoder().decode(T.self, from: data) } catch {
            throw FileError(path, "corrupt content: \(describe(error))")
        }
        if let checked = value as? any ValidatedOnLoad, let problem = checked.validationProblem() {
            throw FileError(path, problem)
        }
        return value
    }

    /// A one-line description of a decoding error.
    public static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "missing field '\(key.stringValue)' at \(path(context).isEmpty ? "top level" : path(context))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "wrong type at \(path(context)): \(context.debugDescription)"
        case .dataCorrupted(let context):
            return "\(context.debugDescription) at \(path(context).isEmpty ? "top level" : path(context))"
        @unknown default: return "\(error)"
        }
    }
}

/// One validation step for every stored series, run on load by every reader.
///
/// Its readers are run files, baseline suite files and result fragments, so nothing downstream indexes arrays it has
/// not checked.
package protocol ValidatedOnLoad {
    /// The first problem found, as a phrase naming where it is, or nil when the value is sound.
    func validationProblem() -> String?
}
