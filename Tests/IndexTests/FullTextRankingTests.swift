import DocSyncIndex
import Foundation
import GRDB
import TestSupport
import Testing

/// The ranking of text searches, against FTS5 itself: a query on at most `FullTextReader.candidates` pages gets
/// exactly FTS5's `bm25(text, 10.0, 1.0)` (scores and order), every page it matches found; a query on more (common
/// words) scores a bounded set, yet still returns only matching pages, the pages whose title holds the words first.
@Suite(.timeLimit(.minutes(5))) struct FullTextRankingTests {
    static func build(_ pages: [(path: String, title: String, body: String)], in dir: TemporaryDirectory) throws
        -> String
    {
        let docset = IndexedDocset(name: "Rank", version: "1", path: dir.appending("Rank.docset"))
        let writer = try #require(try FullTextWriter(docset, stateDirectory: dir.appending("state")))
        for page in pages { try writer.add(path: page.path, title: page.title, body: page.body) }
        try writer.finish()
        return FullTextStore.path(of: docset, stateDirectory: dir.appending("state"))
    }

    /// `count` pages of seeded words: `common` on every page, `rare…` words on a few, some titles holding them.
    static func pages(_ count: Int, _ generator: inout TestRandom) -> [(path: String, title: String, body: String)] {
        let words = ["alpha", "beta", "gamma", "delta", "omega", "sigma", "kappa", "theta"]
        return (0..<count).map { i in
            var body = ["common"]
            for _ in 0..<Int.random(in: 5...60, using: &generator) {
                body.append(words[Int.random(in: 0..<words.count, using: &generator)])
            }
            if Int.random(in: 0..<40, using: &generator) == 0 { body.append("rareword rareword") }
            if i % 7 == 0 { body.append("the quick phrase") }
            let title = i % 50 == 49 ? "Common \(words[i % words.count])" : "Page \(i)"
            return ("p\(i).html", title, body.joined(separator: " "))
        }
    }

    /// FTS5's own ranking of `expression` (every match), best first: (page, score).
    static func fts5(_ path: String, _ expression: String) throws -> [(String, Double)] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT pages.path, bm25(text, 10.0, 1.0) AS score FROM text JOIN pages ON pages.id = text.rowid
                    WHERE text MATCH ? ORDER BY score, text.rowid
                    """, arguments: [expression]
            ).map { ($0[0], $0[1]) }
        }
    }

    @Test func rareQueriesGetFTS5sBM25Exactly() throws {
        var generator = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let dir = try TemporaryDirectory("ranking")
        defer { dir.remove() }
        let path = try Self.build(Self.pages(600, &generator), in: dir)
        let connections = FullTextConnections()
        for query in ["rareword", "rareword alpha", "\"quick phrase\"", "rare*", "alpha -rareword", "Common omega"] {
            let parsed = try TextQuery(parsing: query)
            let expected = try Self.fts5(path, parsed.expression)
            let found = try FullTextReader.search(
                path: path, query: parsed, limit: 1000, docset: "Rank", connections: connections)
            #expect(found.map(\.page) == expected.map(\.0), "\(query), seed \(generator.seed)")
            for (row, want) in zip(found, expected) {
                #expect(abs(row.score - want.1) < 1e-9, "\(query) \(row.page): \(row.score) vs \(want.1), seed \(generator.seed)")
            }
        }
    }

    @Test func commonQueriesAreBoundedMatchingAndTitlesLead() throws {
        var generator = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let dir = try TemporaryDirectory("ranking-common")
        defer { dir.remove() }
        let count = FullTextReader.candidates * 2
        let path = try Self.build(Self.pages(count, &generator), in: dir)
        let connections = FullTextConnections()
        // "common" is on every page: scored among the first candidates plus the pages titled "Common …", which
        // lead (a title hit weighs ten body hits); the last of those is far past the candidates.
        let hits = try FullTextReader.search(
            path: path, query: TextQuery(parsing: "common"), limit: 20, docset: "Rank", connections: connections)
        let titled = Set((0..<count).filter { $0 % 50 == 49 }.map { "p\($0).html" })
        #expect(hits.count == 20)
        #expect(hits.allSatisfy { titled.contains($0.page) }, "\(hits.map(\.page)), seed \(generator.seed)")
        #expect(hits.contains { Int($0.page.dropFirst().dropLast(5))! > FullTextReader.candidates })
        // Every page a large limit returns matches, and as many as asked are returned.
        let all = try FullTextReader.search(
            path: path, query: TextQuery(parsing: "common -theta"), limit: count, docset: "Rank",
            connections: connections)
        let expected = Set(try Self.fts5(path, try TextQuery(parsing: "common -theta").expression).map(\.0))
        #expect(Set(all.map(\.page)) == expected, "seed \(generator.seed)")
        let bounded = try FullTextReader.search(
            path: path, query: TextQuery(parsing: "common -theta"), limit: 20, docset: "Rank", connections: connections)
        #expect(bounded.count == 20 && bounded.allSatisfy { expected.contains($0.page) }, "seed \(generator.seed)")
    }
}
