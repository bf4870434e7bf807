import DocSync
import Foundation
import TestSupport
import Testing

/// The length-ordered walks (substring postings by rank, fuzzy and short-substring mask scans, each stopping at the
/// first name length that can no longer rank) against the brute-force reference over several docsets of generated
/// names: the same hits in the same order for every limit, with and without a type filter. Names and queries repeat
/// letters (the scan mask passes only names holding each query character at least as often, up to twice), mix
/// cases and non-ASCII, so that a filter dropping a true hit fails here.
@Suite(.timeLimit(.minutes(10))) struct RankingEquivalenceTests {
    @Test func lengthOrderedScansMatchTheReference() throws {
        var rng = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let seed = rng.seed
        // Repeated letters (the scan mask's high half), non-ASCII in either case, digits and punctuation groups.
        let words = [
            "map", "view", "array", "set", "io", "x", "queue", "node", "ab", "ba", "é", "Codec", "llama", "ÉtÉ", "Ñu",
            "x11", "Straße", "àÀ",
        ]
        let separators = ["", "_", ".", ":", ""]
        func name() -> String {
            if Int.random(in: 0..<40, using: &rng) == 0 {  // past the last length bucket (255 bytes and more)
                return String(repeating: "ab", count: Int.random(in: 120...200, using: &rng)) + "map"
            }
            let parts = (0..<Int.random(in: 1...4, using: &rng)).map { _ in
                let word = words.randomElement(using: &rng)!
                return Bool.random(using: &rng) ? word.capitalized : word
            }
            return parts.joined(separator: separators.randomElement(using: &rng)!)
        }
        let types = ["Function", "Class", "Method"]
        let dir = try TemporaryDirectory("equivalence")
        defer { dir.remove() }
        // Per docset, names unique once lowercased: ties within a docset are then only across docsets.
        let (docsets, index) = try Self.docsets(
            (0..<4).map { "D\($0)" }, in: dir, draws: { Int.random(in: 150...400, using: &rng) },
            draw: { (name(), types.randomElement(using: &rng)!) })
        let queries = ["m", "a", "ab", "p", "mp", "ma", "é", "_", "mvw", "aray", "qe", "nd", "xa", "ab:", "ba.m", "ia",
            "mapview", "bab", "abba", "vwq", "aaaa", "mapmap", "cc", "codec", "CODEC", "cdcd", "ll", "lll", "llam",
            "éé", "ÉÉ", "étét", "àà", "ÀÀÀ", "ñ", "11", "x1x1", "ßß", "ss", "eee", "oo", "ooo", "..", "__", "a_a"]
        let drawn = (0..<20).map { _ in String(name().prefix(Int.random(in: 1...5, using: &rng))) }
        Self.expectReference(
            index, docsets, queries: queries + drawn, limits: [1, 5, 20, 1000], types: ["Class"], seed: seed)
    }

    /// Every query at every limit, with no type filter and with `types`, gives the reference's hits in its order.
    static func expectReference(
        _ index: DocsetIndex, _ docsets: [(name: String, entries: [(name: String, type: String)])], queries: [String],
        limits: [Int], types: [String], seed: UInt64
    ) {
        for query in queries {
            let q = Array(query.lowercased().utf8)
            for limit in limits {
                for filter in [[], types] {
                    let expected = reference(docsets, query: q, types: filter)
                    let got = index.searchBlocking(SearchQuery(query, types: filter, limit: limit)).hits
                        .map { "\($0.match.label) \($0.docset) \($0.name)" }
                    #expect(
                        got == Array(expected.prefix(limit)),
                        "query \(query), limit \(limit), types \(filter), seed \(seed)")
                }
            }
        }
    }

    /// The walk across docsets by length (every docset's group of one length before the next length): many small
    /// docsets, queries picked from their names as the benchmarks pick them (whole names, prefixes, inner parts,
    /// characters in order with gaps), small limits so that the bound from earlier docsets prunes later ones.
    @Test func walkAcrossManyDocsetsMatchesTheReference() throws {
        var rng = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let seed = rng.seed
        let words = [
            "Module", "Codec", "node", "Tree", "map", "io", "x", "Stream", "é", "set", "ab", "Llama", "ÉtÉ", "x11",
        ]
        let separators = ["", "_", ".", "::", ""]
        func name() -> String {
            (0..<Int.random(in: 1...4, using: &rng)).map { _ in words.randomElement(using: &rng)! }
                .joined(separator: separators.randomElement(using: &rng)!)
        }
        let types = ["Function", "Class", "Method"]
        let dir = try TemporaryDirectory("equivalence-many")
        defer { dir.remove() }
        let (docsets, index) = try Self.docsets(
            (0..<12).map { "M\($0)" }, in: dir, draws: { Int.random(in: 20...120, using: &rng) },
            draw: { (name(), types.randomElement(using: &rng)!) })
        let all = docsets.flatMap { $0.entries.map(\.name) }
        var queries: [String] = []
        for k in 0..<60 {
            let n = Array(all.randomElement(using: &rng)!)
            switch k % 4 {
            case 0: queries.append(String(n))
            case 1: queries.append(String(n.prefix(Int.random(in: 1...6, using: &rng))))
            case 2:
                let start = Int.random(in: 0..<n.count, using: &rng)
                queries.append(String(n[start..<min(n.count, start + Int.random(in: 1...5, using: &rng))]))
            default:
                let picks = (0..<n.count).filter { _ in Int.random(in: 0..<3, using: &rng) == 0 }
                let picked = String(picks.map { n[$0] })
                queries.append(picked.isEmpty ? String(n.prefix(2)) : picked)
            }
        }
        let shouted = queries.filter { _ in Bool.random(using: &rng) }.map { $0.uppercased() }
        // Ranked in one part, and split over the pool's threads as a search over millions of entries is (each part
        // ranks its share of the docsets; the best of the parts' best are the same hits in the same order), and with
        // no scan mask kept mapped (each read through `MaskWalk`'s window, as `serve` reads those past its budget).
        let split = DocsetIndex(
            docsets: index.docsets, stateDirectory: index.stateDirectory, splitEntries: 1, maskBudget: .max)
        let unmapped = DocsetIndex(
            docsets: index.docsets, stateDirectory: index.stateDirectory, splitEntries: 1, maskBudget: 0)
        for index in [index, split, unmapped] {
            Self.expectReference(
                index, docsets, queries: queries + shouted, limits: [1, 3, 20, SearchQuery.maximumLimit],
                types: ["Method"], seed: seed)
        }
    }

    /// Long postings and large length groups: thousands of names of one length over three letters, so that a
    /// trigram's postings span several of `SubstringWalk`'s chunks and a length group is more than `MaskWalk`'s
    /// window, walked both to the end (a large limit) and stopped early (a small one).
    @Test func longPostingsAndLargeGroupsMatchTheReference() throws {
        var rng = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let seed = rng.seed
        func name() -> String {
            let length = [3, 5, 8, 9, 9, 9, 12].randomElement(using: &rng)!
            let letters = (0..<length).map { _ in "abcAB".randomElement(using: &rng)! }
            return String(letters) + (Int.random(in: 0..<50, using: &rng) == 0 ? "_x" : "")
        }
        let types = ["Function", "Class"]
        let dir = try TemporaryDirectory("equivalence-large")
        defer { dir.remove() }
        let (docsets, index) = try Self.docsets(
            ["L0", "L1"], in: dir, draws: { 8_000 }, draw: { (name(), types.randomElement(using: &rng)!) })
        let queries = ["abc", "cab", "aaa", "bcab", "abcabc", "cc", "ab", "acb", "aca", "bbbb", "cabac", "x", "_x",
            "a_x", "abcabcabc", "ccccccccc", "ax", "bx"]
        Self.expectReference(index, docsets, queries: queries, limits: [1, 20, 2_000], types: ["Class"], seed: seed)
    }

    /// A length group of more names than `MaskWalk.window` (8,192), its masks read with `pread` window by window (no mask
    /// kept mapped: `serve` past its `MaskBudget`), the windows' seams included.
    @Test func masksReadThroughTheWindowMatchTheReference() throws {
        var rng = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let seed = rng.seed
        func name() -> String {
            let letters = (0..<9).map { _ in "abcdeAB".randomElement(using: &rng)! }
            return String(letters) + (Int.random(in: 0..<300, using: &rng) == 0 ? "_x" : "")
        }
        let dir = try TemporaryDirectory("equivalence-window")
        defer { dir.remove() }
        let (docsets, index) = try Self.docsets(
            ["W0"], in: dir, draws: { 2 * 8192 + 500 }, draw: { (name(), "Function") })
        let unmapped = DocsetIndex(
            docsets: index.docsets, stateDirectory: index.stateDirectory, splitEntries: .max, maskBudget: 0)
        let queries = ["ab", "x", "_x", "ee", "aa", "dx", "a_x", "eeee", "edcba", "bbbbb", "ad"]
        Self.expectReference(unmapped, docsets, queries: queries, limits: [1, 20, 2_000], types: [], seed: seed)
    }

    /// Docsets named `names` written in `dir` (Dash indexes), each of `draws()` drawn entries with names unique once
    /// lowercased (ties within a docset are then only across docsets), and the index over them all.
    static func docsets(
        _ names: [String], in dir: TemporaryDirectory, draws: () -> Int, draw: () -> (name: String, type: String)
    ) throws -> ([(name: String, entries: [(name: String, type: String)])], DocsetIndex) {
        var docsets: [(name: String, entries: [(name: String, type: String)])] = []
        for docset in names {
            var seen = Set<String>()
            var entries: [(name: String, type: String)] = []
            for _ in 0..<draws() {
                let entry = draw()
                if seen.insert(entry.name.lowercased()).inserted { entries.append(entry) }
            }
            docsets.append((docset, entries))
            try IndexFixture.dash(
                docset, in: dir.path,
                entries.enumerated().map { .init(name: $1.name, type: $1.type, path: "p\($0).html") })
        }
        let index = DocsetIndex(
            docsets: docsets.map {
                IndexedDocset(name: $0.name, version: nil, path: dir.appending("\($0.name).docset"))
            },
            stateDirectory: dir.appending("state"))
        return (docsets, index)
    }

    /// What a search must answer, by brute force: every entry `MatchKind.classify` accepts, ordered by kind, name
    /// length, name bytes and docset order, as `"<kind> <docset> <name>"`.
    static func reference(
        _ docsets: [(name: String, entries: [(name: String, type: String)])], query q: [UInt8], types filter: [String]
    ) -> [String] {
        var expected: [(MatchKind, Int, [UInt8], Int, String)] = []
        for (d, docset) in docsets.enumerated() {
            for entry in docset.entries where filter.isEmpty || filter.contains(entry.type) {
                let n = Array(entry.name.lowercased().utf8)
                if let kind = MatchKind.classify(name: n, query: q) {
                    expected.append((kind, n.count, n, d, "\(kind.label) \(docset.name) \(entry.name)"))
                }
            }
        }
        expected.sort { a, b in
            if a.0 != b.0 { return a.0 < b.0 }
            if a.1 != b.1 { return a.1 < b.1 }
            if a.2 != b.2 { return a.2.lexicographicallyPrecedes(b.2) }
            return a.3 < b.3
        }
        return expected.map(\.4)
    }
}
