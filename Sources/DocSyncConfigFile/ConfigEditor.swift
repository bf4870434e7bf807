import DocSync
internal import DocSyncSupport

/// Edits `docsync.toml` as text, line by line, so comments, blank lines and layout survive (a TOML library would
/// re-serialise the whole file and lose them): appends `[[docset]]` tables and removes them. Pure.
package enum ConfigEditor {
    /// The result of an edit: the new text and what it changed.
    package struct Edit: Sendable, Equatable {
        package var text: String
        /// Names added or removed.
        package var changed: [String]
        /// Names already present (add) or not found (drop): nothing was done for them.
        package var untouched: [String]
    }

    /// Appends one `[[docset]]` table per selection whose name is not selected yet (case-insensitive).
    package static func adding(_ selections: [DocSyncConfiguration.DocsetSelection], to text: String) -> Edit {
        let present = Set(docsetBlocks(lines(text)).map { $0.name.lowercased() })
        var out = text
        var changed: [String] = []
        var untouched: [String] = []
        for selection in selections {
            if present.contains(selection.name.lowercased()) || changed.contains(selection.name) {
                untouched.append(selection.name)
                continue
            }
            if !out.isEmpty && !out.hasSuffix("\n") { out += "\n" }
            if !out.isEmpty && !out.hasSuffix("\n\n") { out += "\n" }
            out += "[[docset]]\nname = \(quoted(selection.name))\n"
            if let version = selection.version { out += "version = \(quoted(version))\n" }
            if let source = selection.source { out += "source = \(quoted(source.rawValue))\n" }
            changed.append(selection.name)
        }
        return Edit(text: out, changed: changed, untouched: untouched)
    }

    /// Removes the `[[docset]]` tables selecting `names` (case-insensitive): the header and its keys, keeping
    /// comments and blank lines that precede the next table; never leaves two blank lines where there was one.
    package static func dropping(_ names: [String], from text: String) -> Edit {
        var all = lines(text)
        let wanted = Set(names.map { $0.lowercased() })
        let blocks = docsetBlocks(all).filter { wanted.contains($0.name.lowercased()) }
        for block in blocks.reversed() {
            var range = block.range
            // Collapse the blank line before the table when the one after it would then follow another.
            let blankBefore = range.lowerBound > 0 && isBlank(all[range.lowerBound - 1])
            let blankAfter = range.upperBound >= all.count || isBlank(all[range.upperBound])
            if blankBefore && blankAfter { range = (range.lowerBound - 1)..<range.upperBound }
            all.removeSubrange(range)
        }
        let found = Set(blocks.map { $0.name.lowercased() })
        var result = all.joined(separator: "\n")
        if text.hasSuffix("\n") && !result.hasSuffix("\n") && !result.isEmpty { result += "\n" }
        return Edit(
            text: result, changed: names.filter { found.contains($0.lowercased()) },
            untouched: names.filter { !found.contains($0.lowercased()) })
    }

    // MARK: Reading the text

    static func lines(_ text: String) -> [String] {
        var result = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if text.hasSuffix("\n") { result.removeLast() }
        return result
    }

    static func isBlank(_ line: String) -> Bool { line.allSatisfy { $0 == " " || $0 == "\t" || $0 == "\r" } }

    static func isComment(_ line: String) -> Bool { line.drop { $0 == " " || $0 == "\t" }.hasPrefix("#") }

    static func isHeader(_ line: String) -> Bool { line.drop { $0 == " " || $0 == "\t" }.hasPrefix("[") }

    static func isDocsetHeader(_ line: String) -> Bool {
        let code = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
        return code.filter { $0 != " " && $0 != "\t" } == "[[docset]]"
    }

    /// Each `[[docset]]` table: its name and its lines, from the header to its last key (comments and blank lines
    /// just before the next header belong to that header).
    static func docsetBlocks(_ lines: [String]) -> [(name: String, range: Range<Int>)] {
        var result: [(String, Range<Int>)] = []
        var index = 0
        while index < lines.count {
            guard isDocsetHeader(lines[index]) else {
                index += 1
                continue
            }
            var end = index + 1
            var lastKey = index
            var name: String? = nil
            while end < lines.count, !isHeader(lines[end]) {
                if !isBlank(lines[end]) && !isComment(lines[end]) {
                    lastKey = end
                    if let value = value(of: "name", in: lines[end]) { name = value }
                }
                end += 1
            }
            if let name { result.append((name, index..<(lastKey + 1))) }
            index = end
        }
        return result
    }

    /// The string value of `key = "…"` / `key = '…'` on this line, or nil.
    static func value(of key: String, in line: String) -> String? {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        guard trimmed.hasPrefix(key) else { return nil }
        var rest = trimmed.dropFirst(key.count).drop { $0 == " " || $0 == "\t" }
        guard rest.first == "=" else { return nil }
        rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        var value = ""
        var escaping = false
        for c in rest.dropFirst() {
            if escaping {
                value.append(c == "n" ? "\n" : c == "t" ? "\t" : c)
                escaping = false
            } else if c == "\\" && quote == "\"" {
                escaping = true
            } else if c == quote {
                return value
            } else {
                value.append(c)
            }
        }
        return nil
    }

    /// A TOML basic string: JSON's escapes (`JSONText`), which TOML shares, plus DEL.
    static func quoted(_ text: String) -> String {
        var out = ""
        JSONText.appendString(text, to: &out, escapingDelete: true)
        return out
    }
}
