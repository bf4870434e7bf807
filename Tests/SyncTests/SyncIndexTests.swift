import DocSync
import Foundation
import TestSupport
import Testing

/// `sync` builds each installed version's search index and reports it; `docsync search` reads it; an update
/// replaces it and the old version's index goes with the old version.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct SyncIndexTests {
    @Test func syncIndexesWhatItInstallsAndSearchFindsIt() async throws {
        let h = try SyncHarness.inMemory()
        try h.publishArchive(DocsetFixture.make(version: "1", indexRows: 7), as: "A1.tgz", folder: "Alpha")
        try h.writeDashFeed("Alpha.xml", version: "1", alternates: [h.url("A1.tgz")])
        try h.writeConfig(feeds: ["Alpha.xml"])

        let first = try await h.sync()
        #expect(first.status == 0, "\(first.lines)")
        let indexed = first.events.filter { $0["event"] as? String == "indexed" }
        #expect(indexed.count == 1)
        #expect(indexed.first?["name"] as? String == "Alpha" && indexed.first?["entries"] as? Int == 7)
        let folders = try FileManager.default.contentsOfDirectory(atPath: "\(h.state)/index")
        #expect(folders.count == 1 && folders[0].hasPrefix("Alpha@"))

        let search = try h.run(["search", "SYM3", "--json"])
        #expect(search.status == 0, "\(search.standardError)")
        let hits = SyncHarness.events(search)
        #expect(hits.map { $0["name"] as? String } == ["sym3"])
        let url = try #require(hits.first?["url"] as? String)
        #expect(url.hasPrefix("file://") && url.hasSuffix("/Contents/Resources/Documents/p3.html"))
        #expect(url.contains("/.docsync/versions/\(folders[0])/"))
        #expect(try h.run(["search", "nothing-like-this"]).status == 1)

        try h.publishArchive(DocsetFixture.make(version: "2", indexRows: 9), as: "A2.tgz", folder: "Alpha")
        try h.writeDashFeed("Alpha.xml", version: "2", alternates: [h.url("A2.tgz")])
        let second = try await h.sync(SyncOptions(refresh: true))
        #expect(second.status == 0, "\(second.lines)")
        let reindexed = second.events.filter { $0["event"] as? String == "indexed" }
        #expect(reindexed.first?["entries"] as? Int == 9)
        let after = try FileManager.default.contentsOfDirectory(atPath: "\(h.state)/index")
        #expect(after.count == 1 && after[0].hasPrefix("Alpha@") && after != folders)
        #expect(SyncHarness.events(try h.run(["search", "sym8", "--json"])).count == 1)
    }
}
