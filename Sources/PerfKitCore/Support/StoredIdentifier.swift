/// A growable mode or outcome type (a struct wrapping a private enum) that is stored in files as its string identifier.
///
/// Conformers get `Codable` from the identifier: decoding an unknown identifier is a data-corruption error that names
/// it.
public protocol StoredIdentifier: Codable {
    /// The identifier written to files.
    var identifier: String { get }
    /// Parses a stored identifier; `nil` when it names no known case.
    init?(identifier: String)
}

extension StoredIdentifier {
    /// Reads a stored identifier; an unknown one is a decoding error.
    public init(from decoder: any Decoder) throws {
        let raw = try decoder.singleValueContainer().decode(String.self)
        guard let value = Self(identifier: raw) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "unknown \(Self.self) '\(raw)'"))
        }
        self = value
    }

    /// Writes the stored identifier.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(identifier)
    }
}
