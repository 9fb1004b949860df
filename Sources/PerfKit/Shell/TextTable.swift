/// Rows of cells as aligned plain-text lines, for the tables the tool prints.
public enum TextTable {
    /// Each column padded to its widest cell: columns in `left` left-aligned, the rest right-aligned;
    /// cells two spaces apart, trailing spaces dropped.
    public static func aligned(_ rows: [[String]], left: Set<Int>) -> [String] {
        let count = rows.map(\.count).max() ?? 0
        let widths = (0..<count).map { c in rows.map { c < $0.count ? $0[c].count : 0 }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { c, cell in
                let pad = String(repeating: " ", count: widths[c] - cell.count)
                return left.contains(c) ? cell + pad : pad + cell
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
    }
}
