import DocSync
import Foundation
import Logging
import TestSupport
import Testing

/// The DocC article "Building an index from docsync" shows `IndexingArticleExample.swift`, compiled with this
/// target, and it runs against a real installed docset.
@Suite(.timeLimit(.minutes(10))) struct IndexingArticleTests {
    @Test(arguments: ["IndexingArticleExample.swift", "IncrementalIndexExample.swift"])
    func theArticleShowsTheCompiledExample(file: String) throws {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let article = try String(
            contentsOf: here.appendingPathComponent("../../Sources/DocSync/DocSync.docc/BuildingAnIndex.md"),
            encoding: .utf8)
        let example = try String(contentsOf: here.appendingPathComponent(file), encoding: .utf8)
        let marker = "<!-- Tests/DocsTests/\(file) -->"
        let after = try #require(article.range(of: marker + "\n```swift\n"), "the article lacks \(marker)")
        let end = try #require(article.range(of: "\n```\n", range: after.upperBound..<article.endIndex))
        #expect(String(article[after.upperBound..<end.lowerBound]) + "\n" == example)
    }

    @Test func theIncrementalExampleReindexesOnlyWhatChanged() async throws {
        let h = try ReaderHarness()
        defer { h.remove() }
        _ = try await h.install("A", version: "1", fixture: try DocsetFixture.make(version: "1"))
        var reindexed: [String] = []
        var dropped: [String] = []
        func run(_ cursor: String?) async throws -> String? {
            try await catchUp(
                engine: h.engine, from: cursor, reindex: { reindexed.append($0) }, drop: { dropped.append($0) })
        }
        let first = try await run(nil)  // never indexed: a full scan
        #expect(reindexed == ["A"] && first != nil)
        _ = try await h.install("B", version: "1", fixture: try DocsetFixture.make(version: "1"))
        _ = try await h.install("A", version: "2", fixture: try DocsetFixture.make(version: "2"))
        try await h.engine.remove(name: "B")
        reindexed = []
        let second = try await run(first)
        #expect(reindexed == ["B", "A"] && dropped == ["B"] && second != first)
        reindexed = []
        #expect(try await run(second) == second && reindexed.isEmpty)  // nothing new
        #expect(try await run("forged") == second && reindexed == ["A"])  // a full rescan
    }

    @Test func theExampleIndexesAnInstalledDocset() async throws {
        let h = try ReaderHarness()
        defer { h.remove() }
        var fixture = try DocsetFixture.make(version: "1", indexRows: 4)
        for i in 0..<3 { fixture.files["Contents/Resources/Documents/p\(i).html"] = (Array("page \(i)".utf8), 0o644) }
        _ = try await h.install("A", version: "1", fixture: fixture)
        var stored: [String: String] = [:]
        try await indexDocsets(engine: h.engine, query: "sym") { name, page, bytes in
            stored["\(name) \(page)"] = String(decoding: bytes, as: UTF8.self)
        }
        // p3.html is in the index but not in the docset: reported, not stored.
        #expect(stored == ["sym0 p0.html": "page 0", "sym1 p1.html": "page 1", "sym2 p2.html": "page 2"])

        let service = syncService(engine: h.engine, logger: Logger(label: "test")) { _ in }
        #expect(service.interval == .seconds(6 * 3600) && service.jitter == .seconds(600))
    }
}
