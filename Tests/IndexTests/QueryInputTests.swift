import DocSync
import DocSyncIndex
import Foundation
import TestSupport
import Testing

/// The public query inputs cannot crash the process: `SearchQuery.problem` is the validation (a table), the async
/// `search` refuses what it names with `invalid_query` before reading anything, the package-internal blocking search
/// clamps, and a seeded fuzz loop throws every kind of limit, type filter and text at a real index.
/// `scripts/fuzz-query` runs the same loop a million times (`DOCSYNC_FUZZ_QUERY_RUNS`).
@Suite(.timeLimit(.minutes(30))) struct QueryInputTests {
    static let names = [
        "map", "Map", "MapView", "mapper", "HashMap", "std::vector", "push_back", "NSString", "é", "naïve", "日本",
        "a\u{0}b", "tab\there", "x", String(repeating: "long", count: 200),
    ]
    static let types = ["Function", "Method", "Class", "func", "instm", "Constant", "Guide", "", "clm", "Type"]

    static func index(_ dir: TemporaryDirectory) throws -> DocsetIndex {
        try IndexFixture.dash(
            "Q", in: dir.path,
            names.enumerated().map { .init(name: $1, type: types[$0 % types.count], path: "p\($0).html") })
        try IndexFixture.dash("R", in: dir.path, [.init(name: "map", type: "Class", path: "r.html")])
        return DocsetIndex(
            docsets: [
                IndexedDocset(name: "Q", version: "1", path: dir.appending("Q.docset")),
                IndexedDocset(name: "R", version: nil, path: dir.appending("R.docset")),
            ],
            stateDirectory: dir.appending("state"))
    }

    @Test(arguments: [
        (SearchQuery("map", limit: 20), nil),
        (SearchQuery("map", limit: 0), nil),
        (SearchQuery("map", limit: SearchQuery.maximumLimit), nil),
        (SearchQuery("map", limit: SearchQuery.maximumLimit + 1), "limit 10001 is out of range (0...10000)"),
        (SearchQuery("map", limit: .max), "limit \(Int.max) is out of range (0...10000)"),
        (SearchQuery("map", limit: -1), "limit -1 is out of range (0...10000)"),
        (SearchQuery("map", limit: .min), "limit \(Int.min) is out of range (0...10000)"),
        (SearchQuery("", limit: 5), nil),
        (SearchQuery("\u{0}\u{1b}[31m\u{7f}", limit: 5), nil),
        (SearchQuery(String(repeating: "a", count: 1024)), nil),
        (SearchQuery(String(repeating: "a", count: 1025)), "the text is 1025 bytes long (at most 1024)"),
        (SearchQuery(String(repeating: "é", count: 513)), "the text is 1026 bytes long (at most 1024)"),
        (SearchQuery("m", types: Array(repeating: "func", count: 1024)), nil),
        (SearchQuery("m", types: Array(repeating: "func", count: 1025)), "1025 type names (at most 1024)"),
        (SearchQuery("m", docsets: Array(repeating: "Q", count: 1025)), "1025 docset names (at most 1024)"),
        (SearchQuery("m", types: [String(repeating: "t", count: 1025)]), "a type name is longer than 1024 bytes"),
    ] as [(SearchQuery, String?)])
    func validation(query: SearchQuery, problem: String?) async throws {
        #expect(query.problem == problem)
        let dir = try TemporaryDirectory("query")
        defer { dir.remove() }
        let index = try Self.index(dir)
        do {
            let results = try await index.search(query)
            #expect(problem == nil, "search ran a query it should refuse: \(problem ?? "")")
            #expect(results.hits.count <= max(0, query.limit))
        } catch {
            #expect(error.kind == .invalidQuery && error.docset.isEmpty)
            #expect(error.description == "search query: \(problem ?? "?")")
        }
    }

    @Test func theLimitThatTrappedIsRefusedAndClampedInside() async throws {
        let dir = try TemporaryDirectory("query")
        defer { dir.remove() }
        let index = try Self.index(dir)
        let trapped = SearchQuery("map", limit: .max)
        await #expect(throws: DocsetIndexError.invalidQuery(try #require(trapped.problem))) {
            _ = try await index.search(trapped)
        }
        // Inside the package the blocking search clamps: `.max` used to trap on `2 * limit + 64`.
        #expect(index.searchBlocking(SearchQuery("map", limit: .max)).hits.count == 6)
        #expect(index.searchBlocking(SearchQuery("map", limit: .min)).hits.isEmpty)
        #expect(try await index.search(SearchQuery("map", limit: 2)).hits.map(\.name) == ["map", "Map"])
    }

    @Test func prepareBuildsEveryDerivedIndexAndReportsTheBrokenOne() async throws {
        let dir = try TemporaryDirectory("query")
        defer { dir.remove() }
        let index = try Self.index(dir)
        try await index.prepare()
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.appending("state/index")).count == 2)
        let broken = DocsetIndex(
            docsets: [IndexedDocset(name: "None", version: nil, path: dir.appending("missing.docset"))],
            stateDirectory: dir.appending("state"))
        await #expect { try await broken.prepare() } throws: { ($0 as? DocsetIndexError)?.docset == "None" }
    }

    static func searched(_ index: DocsetIndex, _ query: SearchQuery) async -> Result<SearchResults, DocsetIndexError> {
        do { return .success(try await index.search(query)) } catch { return .failure(error) }
    }

    /// 20 000 seeded random queries (`DOCSYNC_FUZZ_QUERY_RUNS` for more; `DOCSYNC_TEST_SEED` to replay).
    @Test func fuzzedQueriesNeverCrash() async throws {
        let dir = try TemporaryDirectory("query")
        defer { dir.remove() }
        let index = try Self.index(dir)
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let runs = ProcessInfo.processInfo.environment["DOCSYNC_FUZZ_QUERY_RUNS"].flatMap { Int($0) } ?? 20_000
        var refused = 0
        var hits = 0
        for run in 0..<runs {
            let query = QueryFuzzer.query(using: &random)
            if let problem = query.problem {
                refused += 1
                if run % 512 == 0 {  // the async path too (a thread per call: sampled)
                    await #expect(throws: DocsetIndexError.invalidQuery(problem), "seed \(random.seed)") {
                        _ = try await index.search(query)
                    }
                }
                _ = index.searchBlocking(query)  // clamps; must not trap either
                continue
            }
            var results = index.searchBlocking(query)
            if run % 512 == 0 {
                switch await Self.searched(index, query) {
                case .success(let found): results = found
                case .failure(let error):
                    // A filter naming a docset that is not installed: a typed error, naming it.
                    #expect(error.kind == .notInstalled, "seed \(random.seed): \(error)")
                    #expect(query.docsets.contains(error.docset), "seed \(random.seed): \(error)")
                    continue
                }
            }
            hits += results.hits.count
            guard results.hits.count <= query.limit, results.failures.isEmpty else {
                Issue.record("seed \(random.seed), run \(run): \(results.hits.count) hits, \(results.failures)")
                return
            }
        }
        print("QueryInputTests: \(runs) queries (\(refused) refused, \(hits) hits), seed \(random.seed)")
        #expect(refused > 0 && hits > 0, "seed \(random.seed)")
    }
}

/// Random public query inputs: limits at and past every edge, type and docset filters (known, aliases, junk, huge
/// lists), text from the index, control characters, invalid UTF-8 (decoded as Swift would: U+FFFD), overlong.
enum QueryFuzzer {
    static func query(using random: inout TestRandom) -> SearchQuery {
        SearchQuery(
            text(using: &random), docsets: names(["Q", "R", "q", "Nope", ""], using: &random),
            types: names(QueryInputTests.types + ["FUNC", "Méthode", "\u{0}"], using: &random),
            limit: limit(using: &random))
    }

    static func limit(using random: inout TestRandom) -> Int {
        switch Int.random(in: 0..<10, using: &random) {
        case 0: [Int.min, Int.max, -1, 0, SearchQuery.maximumLimit, SearchQuery.maximumLimit + 1, Int.max / 2 + 1]
            .randomElement(using: &random)!
        case 1: Int.random(in: Int.min...Int.max, using: &random)
        case 2: Int.random(in: (Int.max - 100)...Int.max, using: &random)
        default: Int.random(in: 0...30, using: &random)
        }
    }

    static func names(_ known: [String], using random: inout TestRandom) -> [String] {
        switch Int.random(in: 0..<8, using: &random) {
        case 0: return (0..<Int.random(in: 1...1100, using: &random)).map { _ in known.randomElement(using: &random)! }
        case 1: return [text(using: &random)]
        case 2, 3: return [known.randomElement(using: &random)!]
        default: return []
        }
    }

    static func text(using random: inout TestRandom) -> String {
        switch Int.random(in: 0..<10, using: &random) {
        case 0:
            let count = Int.random(in: 0...40, using: &random)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
            return String(decoding: bytes, as: UTF8.self)  // invalid sequences become U+FFFD
        case 1:
            let scalars = (0..<Int.random(in: 1...20, using: &random)).map { _ in
                Character(Unicode.Scalar(UInt8.random(in: 0...0x1f, using: &random)))
            }
            return String(scalars)
        case 2: return String(repeating: "m", count: Int.random(in: 1000...1100, using: &random))
        case 3: return String(repeating: "é", count: Int.random(in: 0...600, using: &random))
        case 4: return ""
        default:
            let name = QueryInputTests.names.randomElement(using: &random)!
            let cut = Int.random(in: 0...name.count, using: &random)
            return Bool.random(using: &random) ? String(name.prefix(cut)) : String(name.suffix(cut)).uppercased()
        }
    }
}
