import DocSyncSupport
import Foundation

/// A snippet of a page's text around the first word a query matched, the matched words between `**`: cut from the
/// page's visible text when it is found (the index is contentless). Words are compared as the index's tokenizer
/// does (`unicode61`, `remove_diacritics 2`): runs of letters and digits, case and diacritics folded. One line,
/// control characters escaped (`\e`, `\u{…}`). Pure.
package enum TextSnippet {
    /// About `width` characters of `text` around the first match of `query`'s required terms ("…" where cut);
    /// the start of the text when no word matches.
    package static func make(_ text: String, query: TextQuery, width: Int = 200) -> String {
        var exact = Set<String>()
        var prefixes: [String] = []
        for term in query.required {
            let words = self.words(in: term.text).map { fold(term.text[$0]) }
            guard let last = words.last else { continue }
            exact.formUnion(words.dropLast())
            if term.prefix { prefixes.append(last) } else { exact.insert(last) }
        }
        func matches(_ word: Substring) -> Bool {
            let folded = fold(word)
            return exact.contains(folded) || prefixes.contains { folded.hasPrefix($0) }
        }
        var first: Range<String.Index>?
        _ = words(in: text, keeping: false) { range in
            guard matches(text[range]) else { return false }
            first = range
            return true
        }
        var start = text.startIndex
        if let first {
            start = text.index(first.lowerBound, offsetBy: -(width / 3), limitedBy: text.startIndex) ?? text.startIndex
            // Start at a word.
            while start > text.startIndex, start < first.lowerBound, !text[text.index(before: start)].isWhitespace {
                start = text.index(after: start)
            }
        }
        let end = text.index(start, offsetBy: width, limitedBy: text.endIndex) ?? text.endIndex
        var out = start > text.startIndex ? "…" : ""
        var cursor = start
        for range in words(in: text, from: start, to: end) where matches(text[range]) {
            out += text[cursor..<range.lowerBound] + "**" + text[range] + "**"
            cursor = range.upperBound
        }
        out += text[cursor..<end]
        if end < text.endIndex { out += "…" }
        return out.replacingOccurrences(of: "\n", with: " ").escapingControlCharacters
    }

    /// Word ranges of `text` (from `start` to `end`; none kept unless `keeping`), stopping after the first for
    /// which `until` is true. Walks Unicode scalars (a word's range is scalar-aligned).
    private static func words(
        in text: String, from start: String.Index? = nil, to end: String.Index? = nil, keeping: Bool = true,
        until: (Range<String.Index>) -> Bool = { _ in false }
    ) -> [Range<String.Index>] {
        var ranges: [Range<String.Index>] = []
        let scalars = text.unicodeScalars
        var index = start ?? text.startIndex
        let end = end ?? text.endIndex
        var wordStart: String.Index?
        while index < end {
            let isWord = isWordScalar(scalars[index])
            if isWord, wordStart == nil { wordStart = index }
            if !isWord, let begun = wordStart {
                if keeping { ranges.append(begun..<index) }
                wordStart = nil
                if until(begun..<index) { return ranges }
            }
            index = scalars.index(after: index)
        }
        if let begun = wordStart {
            if keeping { ranges.append(begun..<end) }
            _ = until(begun..<end)
        }
        return ranges
    }

    /// A letter, digit or mark (what `unicode61` keeps in a token, roughly); ASCII without a property lookup.
    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x80 {
            return (value >= 0x30 && value <= 0x39) || (value >= 0x41 && value <= 0x5A) || (value >= 0x61 && value <= 0x7A)
        }
        let properties = scalar.properties
        if properties.isAlphabetic || properties.numericType != nil { return true }
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .privateUse: return true
        default: return false
        }
    }

    /// Case and diacritics folded; ASCII by a byte loop (Foundation's folding costs microseconds a word).
    private static func fold(_ word: Substring) -> String {
        if word.utf8.allSatisfy({ $0 < 0x80 }) {
            return String(decoding: word.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
        }
        return word.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
