import Foundation

/// Files of numbers, one per line, as `perfkit stats` reads them (in the spirit of ministat).
public enum NumberFile {
    /// Parses the text of a number file: one number per line; blank lines and `#` comments ignored.
    /// - Parameters:
    ///   - text: The file's content.
    ///   - path: The file's name, for error messages.
    /// - Returns: The numbers in file order.
    /// - Throws: ``FileError`` naming the file and line of the first bad line or non-finite value,
    ///   or saying the file holds no numbers.
    public static func parse(_ text: String, path: String) throws(FileError) -> [Double] {
        var values: [Double] = []
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = Substring(rawLine)
            if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
            let trimmed = line.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "\r")))
            if trimmed.isEmpty { continue }
            guard let value = Double(trimmed) else { throw FileError(path, "line \(offset + 1): '\(trimmed)' is not a number") }
            guard value.isFinite else { throw FileError(path, "line \(offset + 1): \(trimmed) is not a finite number") }
            values.append(value)
        }
        guard !values.isEmpty else { throw FileError(path, "holds no numbers") }
        return values
    }

    /// Reads and parses a number file.
    /// - Throws: ``FileError`` for a missing file or a bad line.
    public static func read(_ path: String) throws(FileError) -> [Double] {
        guard let data = FileManager.default.contents(atPath: path) else { throw FileError(path, "no such file or not readable") }
        guard let text = String(data: data, encoding: .utf8) else { throw FileError(path, "not UTF-8 text") }
        return try parse(text, path: path)
    }
}
