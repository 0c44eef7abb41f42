/// Aligned plain-text tables.
package enum TextTable {
    /// The rows as a table: the first row is the header, each column as wide as its widest cell.
    package static func format(_ rows: [[String]]) -> String {
        guard let header = rows.first else { return "" }
        var widths = header.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count { widths[index] = max(widths[index], cell.count) }
        }
        var lines: [String] = []
        for (number, row) in rows.enumerated() {
            let cells = row.enumerated().map { index, cell in cell + String(repeating: " ", count: widths[index] - cell.count) }
            lines.append("| " + cells.joined(separator: " | ") + " |")
            if number == 0 { lines.append("|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|") }
        }
        return lines.joined(separator: "\n")
    }
}
