import DocSyncIndex
import Foundation
import GRDB
import TestSupport
import Testing

/// The `pairs` table (`FullTextPairs`) and the walks it drives (`TextPairPlan`): phrases of common words and
/// exclusions of nearly universal words find exactly FTS5's pages across the bounds (a phrase on more pages than a
/// walk scores, a rare phrase of two common words, a three-word one, an exclusion that removes nearly every match,
/// one that removes all), the rare ones with FTS5's own BM25 scores, on an index written in more than one batch.
@Suite(.timeLimit(.minutes(5))) struct FullTextPairsTests {
    @Test func pairAndAbsenceTokens() {
        let common: Set<String> = ["a", "b", "c"]
        let cases: [(title: [String], body: [String], universal: [String], want: String)] = [
            ([], ["a", "b", "c"], [], "a_b b_c"),
            (["a", "b"], ["b", "x", "c", "a"], [], "a_b c_a"),
            (["a"], ["b"], [], ""),  // no pair across the title and the body
            ([], ["a", "b"], ["a", "z"], "a_b _z"),
            ([], [], ["z"], "_z"),
            (["a", "b"], ["a", "b", "a", "b"], [], "a_b b_a"),  // each pair once
        ]
        for test in cases {
            #expect(
                FullTextPairs.tokens(title: test.title, body: test.body, common: common, universal: test.universal)
                    == test.want, "\(test)")
        }
        let words = FullTextPairs.words(counts: ["a": 100, "b": 90, "c": 5, "d": 4], pages: 100)
        #expect(words.common == ["a", "b", "c"])
        #expect(words.universal == ["a", "b"])
        // In a docset of 20k pages a word is common on 20 % of the first pages, not 5 %.
        let small = FullTextPairs.words(counts: ["a": 100, "b": 90, "c": 20, "d": 19, "e": 5], pages: 100,
                                        docsetPages: 20_000)
        #expect(small.common == ["a", "b", "c"])
        #expect(small.universal == ["a", "b"])
        #expect(FullTextPairs.expression(["a_b", "_z"]) == "\"a_b\" AND \"_z\"")
    }

    /// The common share follows the docset's size: an uncommon word is on fewer than ~15,000 pages at any size
    /// (FTS5 answers a phrase holding one from its position lists), 20 % at most, 5 % at least (300k pages and up,
    /// where layout 3's query goals were measured), 5 % when the size is not known.
    @Test func commonShareFollowsTheDocsetsSize() {
        let cases: [(pages: Int?, want: Double)] = [
            (nil, 0.05), (0, 0.05), (1, 0.2), (20_000, 0.2), (75_000, 0.2), (100_000, 0.15), (150_000, 0.1),
            (300_000, 0.05), (1_000_000, 0.05),
        ]
        for test in cases {
            #expect(abs(FullTextPairs.commonShare(pages: test.pages) - test.want) < 1e-12, "\(test)")
        }
    }

    /// `TextPairTokens` reads words from the bytes (ASCII directly, other runs through SQLite): the same words as
    /// the `text` table's tokenizer, and the same tokens as `FullTextPairs.tokens` on them, on seeded text mixing
    /// cases, digits, punctuation, `_`, accents (precomposed and combining), NBSP, CJK, emoji and U+FFFD (what invalid
    /// bytes become).
    @Test func tokensFromTextAreTheTokenizersWords() throws {
        var generator = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let pieces = [
            "alpha", "Beta", "GAMMA", "x1", "42", "snake_case", "a-b", "it's", "Café", "naïve", "Straße", "ÉCOLE",
            "e\u{301}t\u{e9}", "日本語", "über\u{a0}alles", "—", "end.", "(paren)", "emoji😀x", "\u{fffd}", "Ωmega",
            "İstanbul", "ﬁne", "", "\t", "\n", "alpha", "beta", "gamma", "beta", "alpha",
        ]
        let queue = try DatabaseQueue()
        func reference(_ text: String) throws -> [String] {
            try queue.inDatabase { db in
                try db.makeTokenizer(FTS5TokenizerDescriptor(components: ["unicode61", "remove_diacritics", "2"]))
                    .tokenize(document: text).map(\.token)
            }
        }
        var pages: [(title: String, body: String)] = []
        for index in 0..<60 {
            func text(_ count: Int) -> String {
                var out = ""
                for _ in 0..<count {
                    out += pieces[Int.random(in: 0..<pieces.count, using: &generator)]
                    out += [" ", "", ",", "\u{a0}"][Int.random(in: 0..<4, using: &generator)]
                }
                return out
            }
            // "alpha" first on all pages but three: a universal word, and pages without it.
            let body = (index < 57 ? "alpha " : "") + text(Int.random(in: 0...80, using: &generator))
            pages.append((text(Int.random(in: 0...4, using: &generator)), body))
        }
        let tokens = try TextPairTokens()
        for page in pages {
            #expect(try tokens.words(of: page.body) == reference(page.body), "seed \(generator.seed)")
        }
        try tokens.choose(pages)
        #expect(tokens.words.universal.contains("alpha"), "seed \(generator.seed)")
        // The words chosen are those of the pages each word is on, as SQLite's tokenizer reads them.
        var counts: [String: Int] = [:]
        for page in pages {
            for word in Set(try reference(page.title) + reference(page.body)) { counts[word, default: 0] += 1 }
        }
        let chosen = FullTextPairs.words(counts: counts, pages: pages.count)
        #expect(tokens.words.common == chosen.common, "seed \(generator.seed)")
        #expect(tokens.words.universal == chosen.universal, "seed \(generator.seed)")
        for page in pages {
            let want = FullTextPairs.tokens(
                title: try reference(page.title), body: try reference(page.body), common: tokens.words.common,
                universal: tokens.words.universal)
            #expect(try tokens.tokens(title: page.title, body: page.body) == want, "seed \(generator.seed)")
        }
    }

    /// Many distinct words, of either case (the table counting them grows past its first sizes): the words chosen
    /// are still those of the pages each word is on.
    @Test func choosingCountsManyDistinctWords() throws {
        var generator = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        var pages: [(title: String, body: String)] = []
        var counts: [String: Int] = [:]
        for index in 0..<40 {
            var words = ["every", index % 2 == 0 ? "Half" : "other"]
            for _ in 0..<1_500 {
                let word = "w\(Int.random(in: 0..<40_000, using: &generator))x" + (index % 3 == 0 ? "longer" : "")
                words.append(Bool.random(using: &generator) ? word.uppercased() : word)
            }
            for word in Set(words.map { $0.lowercased() }) { counts[word, default: 0] += 1 }
            pages.append((words[0], words.dropFirst().joined(separator: " ")))
        }
        let tokens = try TextPairTokens()
        try tokens.choose(pages)
        let chosen = FullTextPairs.words(counts: counts, pages: pages.count)
        #expect(counts.count > 20_000, "seed \(generator.seed)")
        #expect(tokens.words.common == chosen.common, "seed \(generator.seed)")
        #expect(tokens.words.universal == chosen.universal, "seed \(generator.seed)")
        #expect(tokens.words.universal.contains("every"), "seed \(generator.seed)")
    }

    @Test func plansWalkTheSmallestSource() throws {
        let pages = ["the": 1000, "of": 1000, "rare": 3, "most": 990, "some": 500]
        let paired: [String: Bool] = ["the": true, "of": false, "most": true, "some": false]
        func plan(_ text: String) throws -> TextPairPlan {
            let query = try TextQuery(parsing: text)
            let search = TextSearchPlan(query, word: { pages[$0] ?? 0 }, expand: { _ in [] })
            return TextPairPlan(
                query, plan: search, total: 1000, walkable: 50,
                tokens: { $0.lowercased().split(separator: " ").map(String.init) }, paired: { paired[$0] })
        }
        #expect(try plan("\"the of\"").walk == .init(table: "pairs", expression: "\"the_of\""))
        #expect(try plan("\"the of\"").phrases == ["\"the of\"": ["the_of"]])
        #expect(try plan("\"the of the\"").walk == .init(table: "pairs", expression: "\"the_of\" AND \"of_the\""))
        #expect(try plan("rare \"the of\"").walk == .init(table: "text", expression: "\"rare\""))
        #expect(try plan("\"the rare\"").walk == nil)  // a phrase with a rare word: FTS5 is bounded by it
        #expect(try plan("the -most").walk == .init(table: "pairs", expression: "\"_most\""))
        #expect(try plan("the -most -some").checks == [.init("text", "\"some\"", present: false)])
        #expect(try plan("the -most -some").walkedExclusions == ["\"most\""])
        #expect(try plan("\"the of\"").checks.isEmpty)  // the walk's own pair
        #expect(try plan("rare \"the of\"").checks == [
            .init("text", "\"rare\"", present: true), .init("pairs", "\"the_of\"", present: true),
        ])
        #expect(try plan("the -some").walk == nil)  // half the pages lack it: FTS5's own stepping finds them
        #expect(try plan("rare -most").walk == nil)  // the required word is rarer than the pages without it
        #expect(try plan("the").walk == nil)
    }

    /// `count` pages: "here" first and "right … left" around seeded filler on every page (so "left right" is on
    /// none but a few), "big phrase" on nine in ten, "nearly" on all but a few, "everywhere" on all.
    static func pages(_ count: Int, _ generator: inout TestRandom) -> [(path: String, title: String, body: String)] {
        let filler = ["alpha", "beta", "gamma", "delta", "omega", "sigma", "kappa", "theta"]
        return (0..<count).map { i in
            var body = ["here", "right", "everywhere"]
            for _ in 0..<Int.random(in: 200...300, using: &generator) {
                body.append(filler[Int.random(in: 0..<filler.count, using: &generator)])
            }
            if i % 10 != 0 { body.append("big phrase") }
            if i % 500 != 7 { body.append("nearly") }
            body.append("left")
            if [100, 1500, 2400].contains(i) { body.append("left right") }
            if i % 97 == 0 { body.append("big phrase here") }
            return ("p\(i).html", "Page \(i)", body.joined(separator: " "))
        }
    }

    @Test func phrasesAndExclusionsOfCommonWordsFindExactlyFTS5sPages() throws {
        var generator = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let dir = try TemporaryDirectory("pairs")
        defer { dir.remove() }
        let count = 2500  // ~5 MB of text: two batches, the words chosen on the first
        let path = try FullTextRankingTests.build(Self.pages(count, &generator), in: dir)
        let connections = FullTextConnections()
        func search(_ query: String, limit: Int) throws -> [FullTextReader.Row] {
            try FullTextReader.search(
                path: path, query: TextQuery(parsing: query), limit: limit, docset: "Rank", connections: connections)
        }
        // Rare: exactly FTS5's pages, order and scores.
        let rare = ["\"left right\"", "\"big phrase here\"", "here -nearly", "\"big phrase\" -nearly", "right -nearly"]
        for query in rare {
            let expected = try FullTextRankingTests.fts5(path, try TextQuery(parsing: query).expression)
            #expect(!expected.isEmpty, "\(query)")
            let found = try search(query, limit: 1000)
            #expect(found.map(\.page) == expected.map(\.0), "\(query), seed \(generator.seed)")
            for (row, want) in zip(found, expected) {
                #expect(abs(row.score - want.1) < 1e-9, "\(query) \(row.page), seed \(generator.seed)")
            }
        }
        #expect(try FullTextRankingTests.fts5(path, "\"left right\"").count == 3)
        #expect(try FullTextRankingTests.fts5(path, "(\"here\") NOT \"nearly\"").count == 5)
        // Excluded everywhere: nothing.
        #expect(try search("here -everywhere", limit: 20).isEmpty)
        // Common: a phrase on more pages than a walk scores; every page a large limit asks for, each matching.
        let expected = Set(try FullTextRankingTests.fts5(path, "\"big phrase\"").map(\.0))
        #expect(expected.count > FullTextReader.candidates)
        #expect(Set(try search("\"big phrase\"", limit: count).map(\.page)) == expected, "seed \(generator.seed)")
        let bounded = try search("\"big phrase\"", limit: 20)
        #expect(bounded.count == 20 && bounded.allSatisfy { expected.contains($0.page) }, "seed \(generator.seed)")
        let excluded = Set(try FullTextRankingTests.fts5(path, "(\"big phrase\") NOT \"alpha\"").map(\.0))
        #expect(Set(try search("\"big phrase\" -alpha", limit: count).map(\.page)) == excluded)
    }
    /// `pairs` is written on a thread of its own into a dot-name of its own and copied into the index at the end:
    /// the index holds every page's tokens (each token's pages exactly the pages whose text makes it), FTS5's own
    /// `integrity-check` passes on the copy, and no dot-name is left behind, whether the index was finished or
    /// abandoned half-written.
    @Test func pairsWrittenBesideTheTextAreCopiedWhole() throws {
        var generator = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let dir = try TemporaryDirectory("pairs-copy")
        defer { dir.remove() }
        let pages = Self.pages(2500, &generator)  // two batches: the words chosen on the first
        let path = try FullTextRankingTests.build(pages, in: dir)
        let folder = (path as NSString).deletingLastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(".") } == [])
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "INSERT INTO pairs(pairs) VALUES('integrity-check')")
            let paired = try Row.fetchAll(db, sql: "SELECT term, absent FROM paired")
            let universal = paired.filter { $0["absent"] == 1 }.map { $0["term"] as String }.sorted()
            let tokens = try TextPairTokens()
            tokens.use((Set(paired.map { $0["term"] as String }), universal))
            var expected: [String: [Int64]] = [:]
            for (index, page) in pages.enumerated() {
                for token in try tokens.tokens(title: page.title, body: page.body).split(separator: " ") {
                    expected[String(token), default: []].append(Int64(index + 1))
                }
            }
            #expect(expected.count > 10 && !universal.isEmpty, "seed \(generator.seed)")
            for (token, rows) in expected {
                let found = try Int64.fetchAll(
                    db, sql: "SELECT rowid FROM pairs WHERE pairs MATCH ? ORDER BY rowid",
                    arguments: [FullTextPairs.expression([token])])
                #expect(found == rows, "\(token), seed \(generator.seed)")
            }
        }
        try queue.close()
        // Abandoned mid-build: its dot-names go with it.
        let docset = IndexedDocset(name: "Gone", version: "1", path: dir.appending("Gone.docset"))
        var writer = try #require(try FullTextWriter(docset, stateDirectory: dir.appending("state")))
        for page in pages.prefix(2400) { try writer.add(path: page.path, title: page.title, body: page.body) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(".") }.count == 2)
        writer = try #require(try FullTextWriter(docset, stateDirectory: dir.appending("other-state")))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(".") } == [])
        _ = writer
    }
}
