import DocSync
import Foundation
import TestSupport
import Testing

/// A cached feed body that was edited, or no longer parses, is not trusted while the server answers 304:
/// the entry is dropped and the feed fetched in full.
@Suite(.timeLimit(.minutes(10))) struct FeedCacheDigestTests {
    private func cachedBody(_ h: SyncHarness) throws -> String {
        let names = try FileManager.default.contentsOfDirectory(atPath: "\(h.state)/feeds")
        return "\(h.state)/feeds/\(try #require(names.first { $0.hasSuffix(".xml") }))"
    }

    private func feedSource(_ run: SyncRun) -> String? {
        run.events.first { $0["event"] as? String == "feed-checked" }?["source"] as? String
    }

    @Test func anEditedCachedBodyIsDroppedAndFetchedInFull() async throws {
        let h = try SyncHarness.inMemory()
        try h.publishArchive(try DocsetFixture.make(version: "1.0"), as: "A.tgz", folder: "A")
        try h.writeAtomFeed("f.atom", [.init(identifier: "org.a", title: "A", version: "1.0", archive: "A.tgz")])
        try h.writeConfig(feeds: ["f.atom"])
        #expect(try await h.sync().status == 0)
        // Someone edits the cached copy to offer another version; the server keeps answering 304.
        let body = try cachedBody(h)
        let edited = try String(contentsOfFile: body, encoding: .utf8)
            .replacingOccurrences(of: "<docset:version>1.0<", with: "<docset:version>6.6<")
        try edited.write(toFile: body, atomically: true, encoding: .utf8)
        let before = h.origin.accessLog().count
        let again = try await h.sync()
        #expect(again.status == 0, "\(again.lines)")
        #expect(feedSource(again) == "downloaded")
        #expect(h.origin.accessLog().dropFirst(before).first?.status == 200, "an unconditional GET")
        #expect(SyncHarness.names(again.events, "unchanged") == ["A"])
    }

    @Test func aCachedBodyThatNoLongerParsesIsFetchedInFull() async throws {
        let h = try SyncHarness.inMemory()
        try h.publishArchive(try DocsetFixture.make(version: "1.0"), as: "A.tgz", folder: "A")
        try h.writeAtomFeed("f.atom", [.init(identifier: "org.a", title: "A", version: "1.0", archive: "A.tgz")])
        let feed = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(h.www)/f.atom")))
        h.origin.serve("f.atom", .init(headers: [("Cache-Control", "max-age=300")], body: feed))
        try h.writeConfig(feeds: ["f.atom"])
        #expect(try await h.sync().status == 0)
        // A body that matches its recorded digest but does not parse (stored by a buggy or older docsync).
        let store = FeedCacheStore(stateDirectory: h.state)
        let url = h.url("f.atom")
        let (entry, _) = try #require(store.load(url: url))
        try store.save(entry, body: Array("<feed>not closed".utf8))
        let again = try await h.sync()
        #expect(again.status == 0, "\(again.lines)")
        #expect(feedSource(again) == "downloaded")
        #expect(try #require(store.load(url: url)).body.count > 100)
    }
}
