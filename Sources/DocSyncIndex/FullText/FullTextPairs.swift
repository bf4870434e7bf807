/// The text index's `pairs` table (layout 3): for every page, a token per pair of adjacent words (in the title, in
/// the body) whose words are both *common*, `a_b`, and a token per *universal* word the page lacks, `_w`; an FTS5
/// table of those tokens alone (`detail=none`, the `ascii` tokenizer keeping `_` inside a token), so a phrase of
/// common words finds its candidate pages from its rarest pairs instead of intersecting its words' doclists with
/// position checks, and an exclusion of a word on nearly every page finds the few pages without it.
///
/// Which words are common and universal is decided once, on the first batch of pages the writer holds (before any
/// is written, so every page of the index has its tokens): common, a word on at least ``commonShare(pages:)`` of
/// those pages; universal, on at least ``universalShare`` (at most ``maximumUniversal`` of them). The words are the index's own
/// tokens (FTS5's `unicode61` tokenizer, as `text` has them). Pure: table-tested.
package enum FullTextPairs {
    /// A word on at least this share of the first batch's pages is common in a docset of at most
    /// ``uncommonPages`` / ``maximumCommonShare`` pages; ``commonShare(pages:)`` scales it down to
    /// ``minimumCommonShare`` above.
    package static let maximumCommonShare = 0.2
    /// The common share of the largest docsets (300k pages and more: layout 3's measured query goals).
    package static let minimumCommonShare = 0.05
    /// The pages an uncommon word is on at most (about): a phrase holding one is answered by FTS5 from its words'
    /// position lists, whose cost follows their lengths, so a query's worst case is the same at any size as at
    /// 300k pages with ``minimumCommonShare``, where it was measured.
    package static let uncommonPages = 15_000

    /// The share of the first batch's pages a word is on when it is common, in a docset of `pages` HTML pages (nil:
    /// not known, the smallest share). Fewer common words make fewer `pairs` tokens (FTS5's cost in the build is per
    /// distinct token): a docset of 20k pages indexes ~35 % less CPU at 20 % than at 5 %, and a phrase of its
    /// uncommon words reads lists of fewer than 4,000 pages.
    package static func commonShare(pages: Int?) -> Double {
        guard let pages, pages > 0 else { return minimumCommonShare }
        return min(maximumCommonShare, max(minimumCommonShare, Double(uncommonPages) / Double(pages)))
    }
    /// A word on at least this share of the first batch's pages is universal.
    package static let universalShare = 0.9
    /// Universal words kept at most (the most frequent first).
    package static let maximumUniversal = 64
    /// The `pairs` table's tokenizer: every character a token's but spaces and ASCII punctuation other than `_`.
    package static let tokenizer = "ascii tokenchars '_'"

    /// The common and universal words of `pages` pages, given the pages each word is on, for a docset of
    /// `docsetPages` HTML pages (nil: not known).
    package static func words(
        counts: [String: Int], pages: Int, docsetPages: Int? = nil
    ) -> (common: Set<String>, universal: [String]) {
        let total = Double(max(pages, 1))
        let share = commonShare(pages: docsetPages)
        let common = Set(counts.filter { Double($0.value) >= share * total }.keys)
        let universal = counts.filter { Double($0.value) >= universalShare * total }
            .sorted { ($0.value, $1.key) > ($1.value, $0.key) }
            .prefix(maximumUniversal).map(\.key)
        return (common, universal.sorted())
    }

    /// One page's tokens for the `pairs` table: `a_b` for each adjacent pair of common words within the title and
    /// within the body (each pair once: the table keeps pages, not counts nor positions), then `_w` for each
    /// universal word on neither. `TextPairTokens` makes the same from a page's text.
    package static func tokens(title: [String], body: [String], common: Set<String>, universal: [String]) -> String {
        var out: [String] = []
        var seen = Set<String>()
        for field in [title, body] where field.count > 1 {
            for index in 1..<field.count where common.contains(field[index - 1]) && common.contains(field[index]) {
                let token = pair(field[index - 1], field[index])
                if seen.insert(token).inserted { out.append(token) }
            }
        }
        if !universal.isEmpty {
            let present = Set(title).union(body)
            for word in universal where !present.contains(word) { out.append(absent(word)) }
        }
        return out.joined(separator: " ")
    }

    /// The token of two adjacent words.
    package static func pair(_ first: String, _ second: String) -> String { first + "_" + second }

    /// The token of a universal word a page lacks.
    package static func absent(_ word: String) -> String { "_" + word }

    /// An FTS5 `MATCH` expression of the `pairs` table: every token, quoted, AND-ed.
    package static func expression(_ tokens: [String]) -> String {
        tokens.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: " AND ")
    }
}
