/// How a ``TextQuery`` uses an index's `pairs` table (`FullTextPairs`, layout 3), beside its ``TextSearchPlan``.
///
/// FTS5 finds a phrase's pages by intersecting its words' doclists and checking positions on every page all its
/// words are on, and an exclusion's by stepping through the pages its required side is on: a phrase of common words
/// that is itself rare, or a common word minus a word on nearly every page, reads doclists across the whole index
/// for a few hits. Such a query *walks* instead: its candidate pages, in page order, come from the smallest source —
/// the `pairs` tokens every match has (each phrase of common words' pairs, each nearly-universal excluded word's
/// absence), or the rarest required word's own pages when fewer — and each candidate is tested and scored with the
/// whole expression (`FullTextReader`); every page found matches, and a walk that reaches the end finds them all.
/// Pure: table-tested.
package struct TextPairPlan: Sendable, Equatable {
    /// Where a walk's candidates come from: `table` (`pairs` or `text`) `MATCH expression`, in page order.
    package struct Walk: Sendable, Equatable {
        package var table: String
        package var expression: String

        package init(table: String, expression: String) {
            self.table = table
            self.expression = expression
        }
    }

    /// The `pairs` tokens of each required phrase of common words, by the phrase's FTS5 expression (its pages are
    /// counted there: exact for two words).
    package private(set) var phrases: [String: [String]] = [:]
    /// How the query walks; nil: it runs as one FTS5 query (no phrase of common words, no such exclusion).
    package private(set) var walk: Walk?
    /// What each candidate of a walk is checked for, one seek into one doclist each, before it is scored with the
    /// whole expression: FTS5 evaluating an expression at a page it does not match steps on to its next match (a
    /// whole doclist away, for a rare one), so a candidate is scored only when its single words (`text`), its
    /// phrases' pairs (`pairs`) are there and its excluded words are not.
    package private(set) var checks: [Check] = []
    /// One check of a candidate page: `table MATCH expression` holds on it (`present`) or does not.
    package struct Check: Sendable, Equatable {
        package var table: String
        package var expression: String
        package var present: Bool

        package init(_ table: String, _ expression: String, present: Bool) {
            self.table = table
            self.expression = expression
            self.present = present
        }
    }
    /// The `pairs` tokens of a walk from `pairs` (nil for a walk from `text`, or none).
    package private(set) var walkedTokens: [String]?
    /// The excluded words' expressions a walk from `pairs` already excludes (its candidates lack them).
    package private(set) var walkedExclusions: Set<String> = []

    /// Plans `query` (planned as `plan`) on an index of `total` pages. `tokens(text)` gives the words of `text` as
    /// the index's tokenizer reads them; `paired(word)` whether the word is common in `pairs` (false), common and
    /// universal (true: pages without it are listed), or neither (nil). `walkable` is the most pages a walk driven
    /// by one required word tests (a rarer one drives it).
    package init(
        _ query: TextQuery, plan: TextSearchPlan, total: Int, walkable: Int, tokens: (String) throws -> [String],
        paired: (String) throws -> Bool?
    ) rethrows {
        // The rarest required group (a word, or a prefix's words): its pages and expression.
        var rarest: (pages: Int, expression: String)?
        for group in plan.groups where !group[0].excluded {
            let pages = group.reduce(0) { $0 + ($1.pages ?? total) }
            if pages < rarest?.pages ?? Int.max { rarest = (pages, TextSearchPlan.group(group)) }
        }
        var tokensWalked: [String] = []
        for term in query.terms where !term.prefix {
            let words = try tokens(term.text)
            if term.excluded {
                guard words.count == 1, try paired(words[0]) == true,
                    let pages = plan.phrases.first(where: { $0.excluded && $0.expression == term.expression })?.pages,
                    total - pages < rarest?.pages ?? total
                else {
                    if words.count == 1 { checks.append(Check("text", term.expression, present: false)) }
                    continue
                }
                tokensWalked.append(FullTextPairs.absent(words[0]))
                walkedExclusions.insert(term.expression)
            } else if words.count == 1 {
                let pages = plan.phrases.first { !$0.excluded && $0.expression == term.expression }?.pages ?? 0
                // A word on nearly every page is there: its seek costs more than the rare miss.
                if pages < total - total / 10 { checks.append(Check("text", term.expression, present: true)) }
            } else if words.count > 1 {
                var common = true
                for word in words where try paired(word) == nil { common = false }
                guard common else { continue }
                var pairs: [String] = []
                for index in 1..<words.count {
                    let pair = FullTextPairs.pair(words[index - 1], words[index])
                    if !pairs.contains(pair) { pairs.append(pair) }
                }
                phrases[term.expression] = pairs
                checks += pairs.map { Check("pairs", FullTextPairs.expression([$0]), present: true) }
                tokensWalked += pairs.filter { !tokensWalked.contains($0) }
            }
        }
        guard !tokensWalked.isEmpty else { return }
        if let rarest, rarest.pages <= walkable {
            walk = Walk(table: "text", expression: rarest.expression)
            checks += walkedExclusions.sorted().map { Check("text", $0, present: false) }
            walkedExclusions = []
        } else {
            walk = Walk(table: "pairs", expression: FullTextPairs.expression(tokensWalked))
            walkedTokens = tokensWalked
            let walked = Set(tokensWalked.map { FullTextPairs.expression([$0]) })
            checks.removeAll { $0.table == "pairs" && walked.contains($0.expression) }
        }
    }
}
