import DocSync
import Foundation
import TestSupport
import Testing

/// meta.json as Zeal itself would have written it, for every way a docset arrives: read back with Zeal's own rules
/// (`ZealReader`), so Zeal neither mistakes a catalogue docset for a user feed nor shows an update forever.
/// The fixture is ActionScript as Kapeli and Zeal publish it: Kapeli's feed says `3/27`, Zeal's catalogue `3`
/// with revision `27`. Syncs run in process against a `MemoryOrigin`; `lock` and `mirror import` (which need no
/// server) run the binary.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct ZealMetadataTests {
    static func actionScript() throws -> SyncHarness {
        let h = try SyncHarness.inMemory()
        try h.publish(try DocsetFixture.make(version: "3", documents: 3), at: "feeds/ActionScript.tgz", folder: "AS")
        try ServedFile.write(
            "<entry><version>3/27</version><url>\(h.url("feeds/ActionScript.tgz"))</url>"
                + "<other-versions><version><name>2</name></version></other-versions></entry>\n",
            to: "\(h.www)/feeds/ActionScript.xml")
        try h.writeZealCatalog([.init(name: "ActionScript", title: "ActionScript", versions: ["3"], revision: "27")])
        return h
    }

    func zeal(_ root: String) throws -> ZealReader {
        try #require(ZealReader(docset: "\(root)/ActionScript.docset"), "meta.json missing or unreadable")
    }

    func meta(_ root: String) -> Data? { FileManager.default.contents(atPath: "\(root)/ActionScript.docset/meta.json") }

    func synced(_ h: SyncHarness) async throws {
        let result = try await h.sync()
        #expect(result.status == 0, "\(result.lines)")
    }

    /// `docsync lock`, then `sync --locked` on a second root: the same meta.json, byte for byte. Returns its root.
    func lockedCopy(_ h: SyncHarness) async throws -> String {
        let lock = try h.run(["lock"])
        #expect(lock.status == 0, "\(lock.standardError)\(lock.standardOutput)")
        let dir = h.dir.appending("second")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try String(contentsOfFile: h.configPath, encoding: .utf8)
            .write(toFile: "\(dir)/docsync.toml", atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: h.dir.appending("docsync.lock"), toPath: "\(dir)/docsync.lock")
        let result = try await h.sync(configFile: "\(dir)/docsync.toml", locked: true)
        #expect(result.status == 0, "\(result.lines)")
        #expect(meta("\(dir)/root") == meta(h.root), "the locked install writes the same meta.json")
        return "\(dir)/root"
    }

    @Test func aCatalogueInstallIsNotAUserFeedAndIsUpToDate() async throws {
        let h = try Self.actionScript()
        try h.writeCatalogConfig(docsets: ["name = \"ActionScript\""])
        try await synced(h)
        let copy = try await lockedCopy(h)
        for root in [h.root, copy] {
            let zeal = try zeal(root)
            #expect(!zeal.isUserFeed, "Zeal's catalogue entry has no feed_url: \(zeal)")
            #expect(zeal.name == "ActionScript" && zeal.version == "3" && zeal.revision == 27)
            #expect(!zeal.catalogueOffersUpdate(latest: "3", revision: "27"))
            #expect(zeal.catalogueOffersUpdate(latest: "3", revision: "28"), "a newer revision is an update")
        }
    }

    @Test func kapelisFeedsAreACatalogueToo() async throws {
        let h = try Self.actionScript()
        try h.writeCatalogConfig(docsets: ["name = \"ActionScript\"\nsource = \"kapeli\""])
        try await synced(h)
        let zeal = try zeal(h.root)
        #expect(!zeal.isUserFeed)
        #expect(zeal.version == "3" && zeal.revision == 27)
        #expect(!zeal.catalogueOffersUpdate(latest: "3", revision: "27"), "Zeal's catalogue builds 3 r27 from it")
    }

    @Test func aDashFeedIsAUserFeedWhoseVersionIsTheFeeds() async throws {
        let h = try Self.actionScript()
        try h.writeConfig(feeds: ["feeds/ActionScript.xml"])
        try await synced(h)
        let feed = try Data(contentsOf: URL(fileURLWithPath: "\(h.www)/feeds/ActionScript.xml"))
        let copy = try await lockedCopy(h)
        for root in [h.root, copy] {
            let zeal = try zeal(root)
            #expect(zeal.isUserFeed && zeal.feedURL == h.url("feeds/ActionScript.xml"))
            #expect(zeal.version == "3/27" && zeal.revision == 0 && zeal.title == "ActionScript")
            #expect(zeal.feedOffersUpdate(feed) == false, "Zeal compares the feed's raw <version>: \(zeal)")
        }
        let object = try JSONSerialization.jsonObject(with: try #require(meta(h.root))) as? [String: Any]
        #expect(object?["urls"] as? [String] == [h.url("feeds/ActionScript.tgz")], "the feed's <url>s")
        // docsync reads its own record back: nothing to do on the next run.
        let again = try await h.sync()
        #expect(again.names("unchanged") == ["ActionScript"], "\(again.lines)")
    }

    @Test func anAtomFeedIsNotAUserFeed() async throws {
        let h = try Self.actionScript()
        try h.writeAtomFeed(
            "docsets.atom",
            [.init(identifier: "as", title: "ActionScript", version: "3", archive: "feeds/ActionScript.tgz")])
        try h.writeConfig(feeds: ["docsets.atom"])
        try await synced(h)
        let zeal = try zeal(h.root)
        #expect(!zeal.isUserFeed, "Zeal would fetch an Atom feed as a Dash feed and report it invalid")
        #expect(zeal.version == "3" && zeal.name == "ActionScript")
    }

    @Test func aMirrorImportWritesThePublishersMetaJSON() async throws {
        let h = try Self.actionScript()
        try h.writeCatalogConfig(
            docsets: ["name = \"ActionScript\""],
            extra: "[mirror]\ndir = \"\(h.www)/mirror\"\nbase_url = \"\(h.url("mirror"))\"\n")
        try await synced(h)
        let offline = h.dir.appending("offline")
        try FileManager.default.createDirectory(atPath: offline, withIntermediateDirectories: true)
        try "root = \"root\"\nstaging = \"staging\"\nstate = \"state\"\n"
            .write(toFile: "\(offline)/docsync.toml", atomically: true, encoding: .utf8)
        let imported = try Tool.run(
            Tool.docsyncBinary, ["mirror", "import", "\(h.www)/mirror", "--config", "\(offline)/docsync.toml"])
        #expect(imported.status == 0, "\(imported.standardError)\(imported.standardOutput)")
        #expect(meta("\(offline)/root") == meta(h.root))
        #expect(try zeal("\(offline)/root") == zeal(h.root))
        #expect(try !zeal("\(offline)/root").isUserFeed)

        // Zeal's "Add feed" takes feeds/zeal/<Name>.xml: the mirror's copy is its only <url>.
        let zealFeed = try Data(contentsOf: URL(fileURLWithPath: "\(h.www)/mirror/feeds/zeal/ActionScript.xml"))
        let urls = String(decoding: zealFeed, as: UTF8.self).matches(of: /<url>([^<]*)/).map { String($0.output.1) }
        #expect(urls.count == 1 && urls.first?.hasPrefix(h.url("mirror/archives/")) == true, "\(urls)")
        let docsyncFeed = try String(contentsOfFile: "\(h.www)/mirror/feeds/ActionScript.xml", encoding: .utf8)
        #expect(docsyncFeed.matches(of: /<url>/).count == 2, "docsync clients keep the upstream fallback")

        // A client selecting it by name from the mirror's catalogue.json: a catalogue docset to Zeal too.
        let client = h.dir.appending("client")
        try FileManager.default.createDirectory(atPath: client, withIntermediateDirectories: true)
        try CatalogueClient.write(
            to: "\(client)/docsync.toml", catalogue: h.url("mirror/catalogue.json"), docsets: ["ActionScript"])
        let synced = try await h.sync(configFile: "\(client)/docsync.toml")
        #expect(synced.status == 0, "\(synced.lines)")
        let fromMirror = try zeal("\(client)/root")
        #expect(!fromMirror.isUserFeed, "\(fromMirror)")
        #expect(!fromMirror.catalogueOffersUpdate(latest: "3", revision: "27"), "\(fromMirror)")
    }
}
