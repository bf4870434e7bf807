import DocSync
import Foundation
import TestSupport
import Testing

/// `docsync remove NAME` takes the docset's derived search index with it at once; `status` and `search` stop
/// showing it, and the other docsets stay searchable.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct RemoveIndexTests {
    @Test func removeDeletesTheDerivedIndexAndSearchAndStatusForgetTheDocset() async throws {
        let h = try SyncHarness.inMemory()
        try h.publishArchive(DocsetFixture.make(version: "1", indexRows: 5), as: "A.tgz", folder: "Alpha")
        try h.publishArchive(DocsetFixture.make(version: "1", indexRows: 3), as: "B.tgz", folder: "Beta")
        try h.writeDashFeed("Alpha.xml", version: "1", alternates: [h.url("A.tgz")])
        try h.writeDashFeed("Beta.xml", version: "1", alternates: [h.url("B.tgz")])
        try h.writeConfig(feeds: ["Alpha.xml", "Beta.xml"])
        let synced = try await h.sync()
        #expect(synced.status == 0, "\(synced.lines)")
        func indexes() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: "\(h.state)/index").filter { !$0.hasPrefix(".") }
                .sorted()
        }
        #expect(try indexes().map { String($0.prefix(while: { $0 != "@" })) } == ["Alpha", "Beta"])

        let removed = try h.run(["remove", "Alpha"])
        #expect(removed.status == 0, "\(removed.standardError)")
        let left = try indexes()
        #expect(left.count == 1 && left.allSatisfy { $0.hasPrefix("Beta@") }, "\(left)")

        let search = try h.run(["search", "sym1", "--json"])
        let docsets = Set(SyncHarness.events(search).compactMap { $0["docset"] as? String })
        #expect(docsets == ["Beta"], "\(search.standardOutput)\(search.standardError)")
        #expect(try h.run(["search", "sym1", "--docset", "Alpha"]).status != 0)
        #expect(try indexes().count == 1)  // searching did not rebuild the removed docset's index

        let status = try h.run(["status", "--json"])
        #expect(status.status == 0, "\(status.standardError)")
        let json = try JSONSerialization.jsonObject(with: Data(status.standardOutput.utf8)) as? [String: Any]
        let names = (json?["docsets"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
        #expect(names == ["Beta"], "\(status.standardOutput)")
    }
}
