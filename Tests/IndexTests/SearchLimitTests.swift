import DocSync
import Foundation
import TestSupport
import Testing

/// Any `Int` is a safe search limit. `search --limit 4611686018427387904` trapped (SIGILL) on the overflow of
/// `2 * limit + 64` in the ranker; a limit outside 0...`maximumLimit` is now refused with `invalidQuery`, and the
/// package's blocking search clamps it.
@Suite(.timeLimit(.minutes(10))) struct SearchLimitTests {
    static let limits: [Int] = [
        0, 1, -1, 2, 20, SearchQuery.maximumLimit, SearchQuery.maximumLimit + 1, 4_611_686_018_427_387_904,
        Int.max / 2, Int.max - 63, Int.max, Int.min, Int(Int32.max), Int(Int32.min),
    ]

    @Test(arguments: limits)
    func anyLimitSearchesWithoutTrapping(_ limit: Int) async throws {
        let dir = try TemporaryDirectory("limit")
        defer { dir.remove() }
        let names = ["map", "Map", "mapper", "MapView", "HashMap", "m_a_p", "amp"]
        try IndexFixture.dash("L", in: dir.path, names.map { .init(name: $0, type: "Function", path: "\($0).html") })
        let index = DocsetIndex(
            docsets: [IndexedDocset(name: "L", version: nil, path: dir.appending("L.docset"))],
            stateDirectory: dir.appending("state"))
        let query = SearchQuery("map", limit: limit)
        let hits = index.searchBlocking(query).hits
        #expect(hits.count == min(max(limit, 0), 6), "limit \(limit): \(hits.map(\.name))")
        if (0...SearchQuery.maximumLimit).contains(limit) {
            #expect(try await index.search(query).hits.count == hits.count)
        } else {
            await #expect(throws: DocsetIndexError.self, "limit \(limit) is refused") { try await index.search(query) }
        }
    }
}
