import DocSync
import Foundation
import TestSupport
import Testing

/// The order `DocsetIndex.search` returns, checked against the rule: exact > prefix > substring > fuzzy, shorter
/// names first within a kind, case ignored; filters and limits; merged across docsets.
@Suite(.timeLimit(.minutes(10))) struct RankingTests {
    static let names = [
        "MapView", "map", "Map", "mapper", "HashMap", "m_a_p", "xmxaxp", "amp", "bitmap_long_name", "MAP_FIXED",
        "unrelated", "SomethingMapLike", "mp",
    ]

    @Test func rankedByKindThenLength() throws {
        let dir = try TemporaryDirectory("rank")
        defer { dir.remove() }
        try IndexFixture.dash(
            "R", in: dir.path, Self.names.map { .init(name: $0, type: "Function", path: "\($0).html") })
        let index = DocsetIndex(
            docsets: [IndexedDocset(name: "R", version: nil, path: dir.appending("R.docset"))],
            stateDirectory: dir.appending("state"))
        let results = index.searchBlocking(SearchQuery("MAP", limit: 50))
        #expect(results.failures.isEmpty)
        let got = results.hits.map { "\($0.match.label) \($0.name)" }
        #expect(
            got == [
                "exact map", "exact Map", "prefix mapper", "prefix MapView", "prefix MAP_FIXED", "substring HashMap",
                "substring bitmap_long_name", "substring SomethingMapLike", "fuzzy m_a_p", "fuzzy xmxaxp",
            ])
        // Every hit agrees with the reference classification; every name that matches is there.
        for hit in results.hits {
            #expect(MatchKind.classify(name: Array(hit.name.lowercased().utf8), query: Array("map".utf8)) == hit.match)
        }
        #expect(index.searchBlocking(SearchQuery("map", limit: 3)).hits.map(\.name) == ["map", "Map", "mapper"])
        #expect(index.searchBlocking(SearchQuery("zzz")).hits.isEmpty)
        #expect(index.searchBlocking(SearchQuery("")).hits.isEmpty)
    }

    @Test func mergedAcrossDocsetsWithFilters() throws {
        let dir = try TemporaryDirectory("rank")
        defer { dir.remove() }
        try IndexFixture.dash("C", in: dir.path, Samples.dash)
        try IndexFixture.coreData("Foundation", in: dir.path, Samples.coreData)
        let docsets = ["C", "Foundation"].map {
            IndexedDocset(name: $0, version: "1", path: dir.appending("\($0).docset"))
        }
        let index = DocsetIndex(docsets: docsets, stateDirectory: dir.appending("state"))
        let all = index.searchBlocking(SearchQuery("print", limit: 10)).hits.map { "\($0.docset):\($0.name)" }
        #expect(all == ["C:printf", "C:PRINT_MAX", "C:sprintf", "C:Guide to printing"])
        let merged = index.searchBlocking(SearchQuery("s", limit: 100)).hits
        #expect(Set(merged.map(\.docset)) == ["C", "Foundation"])
        #expect(merged.first.map { "\($0.docset):\($0.name)" } == "C:sprintf")
        let onlyFoundation = index.searchBlocking(SearchQuery("s", docsets: ["foundation"], limit: 100)).hits
        #expect(!onlyFoundation.isEmpty && onlyFoundation.allSatisfy { $0.docset == "Foundation" })
        let methods = index.searchBlocking(SearchQuery("t", types: ["instm", "Method"], limit: 100)).hits
        #expect(methods.map(\.name).sorted() == ["length", "stringWithFormat:"])
        let functions = index.searchBlocking(SearchQuery("print", types: ["func"])).hits
        #expect(functions.map(\.name) == ["printf", "sprintf"])
    }
}

/// The derived index's shortcuts (binary search, trigram postings, character masks) against the brute-force
/// reference on random names: the same hits in the same order.
@Suite(.timeLimit(.minutes(10))) struct RankingReferenceTests {
    @Test func matchesTheReference() throws {
        var rng = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let seed = rng.seed
        let alphabet = Array("abcdeAB_.:é1")
        func word(_ range: ClosedRange<Int>) -> String {
            String((0..<Int.random(in: range, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! })
        }
        let names = (0..<600).map { _ in word(1...9) }
        let dir = try TemporaryDirectory("reference")
        defer { dir.remove() }
        try IndexFixture.dash(
            "R", in: dir.path, names.enumerated().map { .init(name: $1, type: "Function", path: "p\($0).html") })
        let index = DocsetIndex(
            docsets: [IndexedDocset(name: "R", version: nil, path: dir.appending("R.docset"))],
            stateDirectory: dir.appending("state"))
        for _ in 0..<60 {
            let query = word(1...4)
            let q = Array(query.lowercased().utf8)
            let expected = names.enumerated().compactMap { id, name -> (MatchKind, Int, [UInt8], Int, String)? in
                let n = Array(name.lowercased().utf8)
                return MatchKind.classify(name: n, query: q).map { ($0, n.count, n, id, name) }
            }.sorted { a, b in
                if a.0 != b.0 { return a.0 < b.0 }
                if a.1 != b.1 { return a.1 < b.1 }
                if a.2 != b.2 { return a.2.lexicographicallyPrecedes(b.2) }
                return a.3 < b.3
            }.prefix(15).map { "\($0.0.label) \($0.4)" }
            let got = index.searchBlocking(SearchQuery(query, limit: 15)).hits.map { "\($0.match.label) \($0.name)" }
            #expect(got == Array(expected), "query \(query), seed \(seed)")
        }
    }
}
