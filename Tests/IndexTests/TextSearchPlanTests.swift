import DocSyncIndex
import Testing

/// How a text query runs on one index: prefixes expanded into the index's words (an `OR` FTS5 reads lazily), the
/// pages each word is on looked up, exclusions kept apart, a prefix nothing starts with matching nothing.
@Suite(.timeLimit(.minutes(5))) struct TextSearchPlanTests {
    static let terms = ["bro": 1, "broad": 2, "brother": 3, "brown": 5, "fox": 7]

    static func plan(_ query: String, withTerms: Bool = true) throws -> TextSearchPlan {
        try TextSearchPlan(
            TextQuery(parsing: query),
            word: { withTerms ? terms[$0] ?? 0 : nil },
            expand: { prefix in
                guard withTerms else { return nil }
                return terms.keys.sorted().filter { $0.hasPrefix(prefix) }.map { ($0, terms[$0]!) }
            })
    }

    @Test(arguments: [
        // (query, expression, the pages of each phrase: -1 when counted at query time)
        ("brown", #""brown""#, [5]),
        ("Brown FOX", #""Brown" AND "FOX""#, [5, 7]),
        ("bro*", #"("bro" OR "broad" OR "brother" OR "brown")"#, [1, 2, 3, 5]),
        ("fox -bro*", #"("fox") NOT ("bro" OR "broad" OR "brother" OR "brown")"#, [7, 1, 2, 3, 5]),
        ("fox -zz*", #""fox""#, [7]),
        ("fox -brown", #"("fox") NOT "brown""#, [7, 5]),
        (#""quick brown" fox"#, #""quick brown" AND "fox""#, [-1, 7]),
        ("café", #""café""#, [-1]),
        ("unknown", #""unknown""#, [0]),
        (#""quick bro"*"#, #""quick bro" *"#, [-1]),
    ])
    func plans(query: String, expression: String, pages: [Int]) throws {
        let plan = try Self.plan(query)
        #expect(!plan.matchesNothing)
        #expect(plan.expression == expression)
        #expect(plan.phrases.map { $0.pages ?? -1 } == pages)
    }

    @Test func requiredExpressionLeavesExclusionsOut() throws {
        #expect(try Self.plan("fox bro* -brown").requiredExpression == #""fox" AND ("bro" OR "broad" OR "brother" OR "brown")"#)
    }

    @Test func aRequiredPrefixNothingStartsWithMatchesNothing() throws {
        #expect(try Self.plan("fox zz*").matchesNothing)
        #expect(try !Self.plan("fox -zz*").matchesNothing)
    }

    @Test func withoutTheWordsPrefixesAreLeftToFTS5AndEveryPhraseIsCounted() throws {
        let plan = try Self.plan("bro* fox", withTerms: false)
        #expect(plan.expression == #""bro" * AND "fox""#)
        #expect(plan.phrases.map(\.pages) == [nil, nil])
    }

    @Test(arguments: [("Brown", "brown"), ("x86", "x86"), ("café", nil), ("a_b", nil), ("", nil), ("a-b", nil)])
    func folding(text: String, folded: String?) {
        #expect(TextSearchPlan.folded(text) == folded)
    }
}
