/// How a ``TextQuery`` runs on one text index: its FTS5 `MATCH` expression, with each one-word prefix (`conf*`)
/// expanded into the index's words that start with it (an `OR` FTS5 reads lazily, so a query that stops after K
/// pages stops reading; FTS5's own prefix query merges the doclists of every such word before the first page), and
/// the phrases of that expression in its order, each with the pages it is on when the index's `terms` table says
/// (the IDFs `FullTextRanking` is given). Pure: table-tested.
package struct TextSearchPlan: Sendable, Equatable {
    /// One phrase of the expression (a word, a quoted phrase, or a prefix left to FTS5).
    package struct Phrase: Sendable, Equatable {
        /// As FTS5 reads it: `"word"`, `"a phrase"`, `"pre" *`.
        package var expression: String
        /// The pages it is on, when known from the index's words (nil: to be counted).
        package var pages: Int?
        /// Excluded (`-word`): never in a page found, so its IDF does not matter.
        package var excluded: Bool

        package init(_ expression: String, pages: Int? = nil, excluded: Bool = false) {
            self.expression = expression
            self.pages = pages
            self.excluded = excluded
        }
    }

    /// A prefix expands into at most this many words; one with more is left to FTS5's prefix query.
    package static let maximumExpansion = 256

    /// One group per term that can match (a prefix expanded: its words, OR-ed), required terms first.
    package private(set) var groups: [[Phrase]] = []
    /// A required prefix no word of the index starts with: no page can match.
    package private(set) var matchesNothing = false

    /// Plans `query`. `word(folded)` gives the pages a word (lowercase ASCII letters and digits) is on, nil when
    /// not known (an index without a `terms` table); `expand(prefix)` the words starting with `prefix` and their
    /// pages, nil when they are not known or more than ``maximumExpansion``.
    package init(
        _ query: TextQuery, word: (String) throws -> Int?, expand: (String) throws -> [(word: String, pages: Int)]?
    ) rethrows {
        for term in query.required + query.terms.filter(\.excluded) {
            let folded = term.phrase ? nil : Self.folded(term.text)
            if term.prefix, let folded, let words = try expand(folded) {
                guard !words.isEmpty else {
                    if !term.excluded { matchesNothing = true }
                    continue  // an excluded prefix nothing starts with excludes nothing
                }
                groups.append(
                    words.map { Phrase(TextQuery.Term($0.word).expression, pages: $0.pages, excluded: term.excluded) })
            } else {
                let pages = try term.prefix ? nil : folded.flatMap(word)
                groups.append([Phrase(term.expression, pages: pages, excluded: term.excluded)])
            }
        }
    }

    /// Every phrase, in the expression's order.
    package var phrases: [Phrase] { groups.flatMap { $0 } }

    /// The FTS5 `MATCH` expression: `(a AND (b OR bc)) NOT c`.
    package var expression: String { expression(without: []) }

    /// The expression without the excluded groups in `dropped` (their expressions: pages known to lack them).
    /// The required phrases keep their places (IDFs are given by place; excluded ones come last).
    package func expression(without dropped: Set<String>) -> String {
        let excluded = groups.filter { $0[0].excluded && !dropped.contains(Self.group($0)) }
            .map { " NOT " + Self.group($0) }.joined()
        return excluded.isEmpty ? requiredExpression : "(\(requiredExpression))\(excluded)"
    }

    /// The required terms alone, `a AND (b OR bc)` (for the index's `titles` table: pages whose title holds them).
    package var requiredExpression: String {
        groups.filter { !$0[0].excluded }.map(Self.group).joined(separator: " AND ")
    }

    /// One group as FTS5 reads it: a phrase, or `(a OR b)`.
    package static func group(_ phrases: [Phrase]) -> String {
        phrases.count == 1 ? phrases[0].expression : "(" + phrases.map(\.expression).joined(separator: " OR ") + ")"
    }

    /// `text` as the index's tokenizer stores it, when that is certain: ASCII letters and digits, lowercased (nil
    /// otherwise: such a term is counted, not looked up).
    package static func folded(_ text: String) -> String? {
        guard !text.isEmpty, text.utf8.allSatisfy(\.isLetterOrDigitASCII) else {
            return nil
        }
        return text.lowercased()
    }
}

extension UInt8 {
    fileprivate var isLetterOrDigitASCII: Bool {
        (0x61...0x7A).contains(self) || (0x41...0x5A).contains(self) || (0x30...0x39).contains(self)
    }
}
