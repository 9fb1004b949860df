/// A growable mode or outcome type (a struct over an enum of its own) stored in files as its string identifier.
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

/// A stored identifier backed by a string enum its type keeps out of adopters' sight.
///
/// The type's cases are its static members (`Verdict.regressed`); the enum behind them is `@_spi(StoredCases)`, so an
/// adopter can neither name it nor switch over it exhaustively, and cases can be added without breaking anyone. The
/// identifier and its parsing are written once, here.
public protocol StoredCases: StoredIdentifier {
    /// The enum of the type's cases, each stored as its raw value.
    associatedtype Value: RawRepresentable where Value.RawValue == String
    /// The case.
    var value: Value { get }
    /// The value of a case.
    init(_ value: Value)
}

extension StoredCases {
    /// The stored identifier: the case's raw value.
    public var identifier: String { value.rawValue }

    /// Parses a stored identifier; nil when it names no case.
    /// - Parameter identifier: The stored identifier.
    public init?(identifier: String) {
        guard let value = Value(rawValue: identifier) else { return nil }
        self.init(value)
    }
}
