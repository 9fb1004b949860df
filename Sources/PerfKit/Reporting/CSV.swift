import Foundation
import PerfKitCore

/// CSV helpers (RFC 4180 quoting).
public enum CSV {
    /// Quotes a field when it holds a comma, quote or newline.
    /// - Parameter field: The raw field.
    /// - Returns: The field as it must appear in a CSV line.
    public static func escape(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Joins fields into one CSV line, quoting where needed.
    public static func line(_ fields: [String]) -> String { fields.map(escape).joined(separator: ",") }
}
