/// A full-text query as people type it, parsed into terms and then into an FTS5 `MATCH` expression in which every
/// term is a quoted string (user text never reaches FTS5's syntax): words are AND-ed, `"quoted phrases"` match in
/// order, `word*` is a prefix, `-word` (or `-"a phrase"`) excludes. Pure: table-tested.
package struct TextQuery: Sendable, Equatable {
    /// One term of the query.
    package struct Term: Sendable, Equatable {
        /// The words, as typed (a phrase has several).
        package var text: String
        package var phrase: Bool
        package var prefix: Bool
        package var excluded: Bool

        package init(_ text: String, phrase: Bool = false, prefix: Bool = false, excluded: Bool = false) {
            self.text = text
            self.phrase = phrase
            self.prefix = prefix
            self.excluded = excluded
        }

        /// The term as one FTS5 string: `"text"` with quotes doubled, then ` *` for a prefix.
        var expression: String {
            "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" + (prefix ? " *" : "")
        }
    }

    /// The longest query read, in UTF-8 bytes.
    package static let maximumBytes = 1024
    /// The most terms in one query.
    package static let maximumTerms = 32

    package var terms: [Term]

    /// The terms that must match (not excluded).
    package var required: [Term] { terms.filter { !$0.excluded } }

    /// Parses `text`; the error names the position (1-based, in characters) of what is wrong.
    package init(parsing text: String) throws(TextQueryError) {
        guard text.utf8.count <= Self.maximumBytes else {
            throw .make("the query is \(text.utf8.count) bytes; at most \(Self.maximumBytes) are read")
        }
        let characters = Array(text)
        var terms: [Term] = []
        var i = 0
        while i < characters.count {
            if characters[i].isWhitespace {
                i += 1
                continue
            }
            let start = i
            var excluded = false
            if characters[i] == "-" {
                excluded = true
                i += 1
                guard i < characters.count, !characters[i].isWhitespace else {
                    throw .make("nothing after \"-\" at position \(start + 1)")
                }
            }
            var term: Term
            if characters[i] == "\"" {
                let open = i
                i += 1
                var words = ""
                while i < characters.count, characters[i] != "\"" {
                    words.append(characters[i])
                    i += 1
                }
                guard i < characters.count else { throw .make("the quote at position \(open + 1) is not closed") }
                i += 1
                term = Term(words, phrase: true, excluded: excluded)
            } else {
                var word = ""
                while i < characters.count, !characters[i].isWhitespace {
                    if characters[i] == "\"" { throw .make("a quote inside a word at position \(i + 1)") }
                    if characters[i] == "*", i + 1 < characters.count, !characters[i + 1].isWhitespace {
                        throw .make("\"*\" at position \(i + 1) is not at the end of a word")
                    }
                    word.append(characters[i])
                    i += 1
                }
                term = Term(word, excluded: excluded)
            }
            if i < characters.count, characters[i] == "*" {
                term.prefix = true
                i += 1
            } else if term.text.hasSuffix("*"), !term.phrase {
                term.text.removeLast()
                term.prefix = true
            }
            if i < characters.count, !characters[i].isWhitespace {
                throw .make("expected a space after the term at position \(start + 1), at position \(i + 1)")
            }
            guard term.text.contains(where: { $0.isLetter || $0.isNumber }) else {
                if term.phrase || term.prefix || term.excluded {
                    throw .make("the term at position \(start + 1) has no word in it")
                }
                continue  // punctuation alone: no word to look for
            }
            terms.append(term)
        }
        guard terms.count <= Self.maximumTerms else {
            throw .make("\(terms.count) terms; at most \(Self.maximumTerms) are read")
        }
        guard terms.contains(where: { !$0.excluded }) else {
            throw .make(terms.isEmpty ? "no word to look for" : "only excluded words: nothing to look for")
        }
        self.terms = terms
    }

    /// The FTS5 `MATCH` expression: `(a AND b) NOT c …`.
    package var expression: String {
        let required = required.map(\.expression).joined(separator: " AND ")
        let excluded = terms.filter(\.excluded).map { " NOT " + $0.expression }.joined()
        return excluded.isEmpty ? required : "(\(required))\(excluded)"
    }
}

/// A full-text query that cannot be read: too long, without a word, or with a syntax error (the message names the
/// position).
package struct TextQueryError: Error, Sendable, Equatable, CustomStringConvertible {
    package let message: String
    static func make(_ message: String) -> TextQueryError { TextQueryError(message: message) }
    package var description: String { message }
}
