import DocSync

/// The human output of `feed parse`: a header line and a table of entries, one row per archive-bearing entry.
enum FeedTable {
    /// Feed text is untrusted: every piece is escaped (and URLs redacted) before it is laid out.
    private static func safe(_ text: String) -> String { text.redactingCredentials.escapingControlCharacters }

    static func render(_ document: ParsedFeed) -> String {
        var header = "\(document.format.rawValue) feed"
        if let name = document.name { header += " \(safe(name))" }
        if let title = document.title { header += " \"\(safe(title))\"" }
        if let updated = document.updated { header += ", updated \(ParsedFeed.dateText(updated))" }
        header += ": \(document.entries.count) \(document.entries.count == 1 ? "entry" : "entries")\n"

        var rows = [["IDENTIFIER", "VERSION", "REVISION", "UPDATED", "SHA-256", "ARCHIVES", "TITLE"]]
        for entry in document.entries {
            rows.append([
                safe(entry.identifier ?? "-"), safe(entry.version ?? "-"), safe(entry.revision ?? "-"),
                entry.updated.map(ParsedFeed.dateText) ?? "-", entry.sha256.map { String($0.prefix(12)) + "…" } ?? "-",
                String(entry.archives.count), safe(entry.title ?? "-"),
            ])
        }
        var text = header + table(rows)
        for (index, entry) in document.entries.enumerated() {
            for archive in entry.archives {
                var line = "  [\(index + 1)] \(safe(archive.url))"
                if let length = archive.length { line += " (\(length) bytes)" }
                text += line + "\n"
            }
            if !entry.otherVersions.isEmpty {
                text += "  [\(index + 1)] other versions: \(safe(entry.otherVersions.joined(separator: ", ")))\n"
            }
        }
        return text
    }

    /// Left-aligned columns separated by two spaces; the last column is not padded.
    static func table(_ rows: [[String]]) -> String {
        guard let columns = rows.first?.count else { return "" }
        let widths = (0..<columns).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == columns - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ") + "\n"
        }.joined()
    }
}
