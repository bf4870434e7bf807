import DocSync
import Foundation
import TestSupport
import Testing

/// `[[docset]] name = …`: docsets chosen by catalogue name, synced in process against the catalogues, feeds and
/// archives of a `MemoryOrigin` (the `catalog`, `add` and `drop` commands: `CatalogCommandTests`).
@Suite(.timeLimit(.minutes(10))) struct CatalogSyncTests {
    @Test func aDocsetChosenByAliasInstallsAndANoOpSyncCostsOneRevalidation() async throws {
        let h = try SyncHarness.inMemory()
        let python = try DocsetFixture.make(version: "3.12.1", documents: 4)
        try h.publish(python, at: "feeds/Python_3.tgz", folder: "Python_3")
        try h.writeZealCatalog([
            .init(name: "Python_3", title: "Python 3", versions: ["3.12.1", ".11.4"], revision: "2", aliases: ["py3"])
        ])
        try h.writeCatalogConfig(docsets: ["name = \"PY3\""])

        let first = try await h.sync()
        #expect(first.status == 0, "\(first.lines)")
        #expect(SyncHarness.names(first.events, "installed") == ["Python_3"])
        #expect(h.installedManifest("Python_3")?.filter { !$0.key.hasPrefix("icon") } == python.expectedManifest)
        // meta.json and the icons as Zeal writes them from its catalogue.
        let folder = "\(h.root)/Python_3.docset"
        let meta = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(folder)/meta.json")))
                as? [String: Any])
        #expect(meta["name"] as? String == "Python_3" && meta["title"] as? String == "Python 3")
        #expect(meta["version"] as? String == "3.12.1" && meta["revision"] as? String == "2")
        // Zeal's catalogue entry lists no feed_url or urls: Zeal would write none (a feed_url makes it a user feed).
        #expect(meta["feed_url"] == nil)
        #expect(meta["urls"] == nil)
        let extra = try #require(meta["extra"] as? [String: Any])
        #expect(extra["indexFilePath"] as? String == "index.html" && extra["isJavaScriptEnabled"] as? Bool == true)
        #expect((extra["docsync"] as? [String: Any])?["archive_sha256"] != nil)
        let png = try #require(Data(base64Encoded: SyncHarness.png))
        #expect(FileManager.default.contents(atPath: "\(folder)/icon.png") == png)
        #expect(FileManager.default.contents(atPath: "\(folder)/icon@2x.png") == png)

        let before = h.origin.accessLog().count
        let second = try await h.sync()
        #expect(second.status == 0, "\(second.lines)")
        #expect(SyncHarness.names(second.events, "unchanged") == ["Python_3"])
        let requests = h.origin.accessLog().dropFirst(before)
        #expect(requests.map(\.status) == [304], "one revalidation of the catalogue, nothing else: \(requests)")
    }

    @Test func aPinnedVersionComesFromTheVersionsFolderAndAMissIsExplained() async throws {
        let h = try SyncHarness.inMemory()
        let old = try DocsetFixture.make(version: "3.11.4", documents: 3)
        try h.publish(old, at: "feeds/zzz/versions/Python_3/3.11.4/Python_3.tgz", folder: "Python_3")
        try h.writeZealCatalog([.init(name: "Python_3", title: "Python 3", versions: ["3.12.1", ".11.4"])])
        try h.writeCatalogConfig(docsets: ["name = \"Python_3\"\nversion = \"3.11.4\"", "name = \"Pythn_3\""])

        let result = try await h.sync()
        #expect(result.status == 3, "one docset is skipped")
        let events = result.events
        #expect(SyncHarness.names(events, "installed") == ["Python_3"])
        #expect(h.installedManifest("Python_3")?.filter { !$0.key.hasPrefix("icon") } == old.expectedManifest)
        let skip = events.first { $0["event"] as? String == "skipped" }
        let reason = skip?["reason"] as? String ?? ""
        #expect(reason.contains("did you mean \"Python_3\"?"), "\(reason)")
    }

    @Test func contributionsInstallWithTheirSpecificVersionsAndKeepTheArchivesIcon() async throws {
        let h = try SyncHarness.inMemory()
        var jest = try DocsetFixture.make(version: "27.0", documents: 2)
        jest.files["icon.png"] = ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3], 0o644)
        try h.publish(jest, at: "contrib/Jest/versions/27.0/Jest-27.tgz", folder: "Jest")
        try h.writeContribIndex([
            "Jest": [
                "name": "Jest", "version": "29.7", "archive": "Jest.tgz",
                "specific_versions": [["version": "27.0", "archive": "Jest-27.tgz"]],
                "icon": SyncHarness.png, "icon@2x": SyncHarness.png,
            ]
        ])
        try h.writeCatalogConfig(
            docsets: ["name = \"jest\"\nversion = \"27.0\"\nsource = \"contrib\""], zeal: nil,
            contrib: "contrib/index.json")
        let result = try await h.sync()
        #expect(result.status == 0, "\(result.lines)")
        // The archive's own icon.png wins; the missing icon@2x.png comes from the index.
        #expect(h.installedManifest("Jest")?.filter { $0.key != "icon@2x.png" } == jest.expectedManifest)
        #expect(FileManager.default.contents(atPath: "\(h.root)/Jest.docset/icon@2x.png") != nil)
        // No feed_url for Zeal to fetch (a contribution has no feed); docsync keeps its origin in the host record.
        let meta = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: "\(h.root)/Jest.docset/meta.json"))) as? [String: Any])
        #expect(meta["feed_url"] == nil)
        #expect(((meta["extra"] as? [String: Any])?["docsync"] as? [String: Any])?["arrival"] as? String == "catalog")
        let installed = try h.engine().installedDocsets()
        #expect(installed.first?.feedURL == "catalog:contrib/Jest")
    }

    @Test func anUnreadableCatalogueNeverPrunes() async throws {
        let h = try SyncHarness.inMemory()
        try h.publish(try DocsetFixture.make(version: "1"), at: "feeds/Go.tgz", folder: "Go")
        try h.writeZealCatalog([.init(name: "Go", title: "Go", versions: ["1"])])
        try h.writeCatalogConfig(docsets: ["name = \"Go\""], extra: "prune = true")
        #expect(try await h.sync().status == 0)
        try "<html>maintenance</html>".write(toFile: "\(h.www)/zeal.json", atomically: true, encoding: .utf8)
        let result = try await h.sync(SyncOptions(refresh: true))
        #expect(result.status == 3)
        #expect(SyncHarness.names(result.events, "removed").isEmpty)
        #expect(FileManager.default.fileExists(atPath: "\(h.root)/Go.docset/Contents/Info.plist"))
    }

    @Test func kapeliFeedsResolveOtherVersionsWithADotPrefix() async throws {
        let h = try SyncHarness.inMemory()
        let old = try DocsetFixture.make(version: "3.9.6", documents: 2)
        try h.publish(old, at: "feeds/zzz/versions/Python_3/3.9.6/Python_3.tgz", folder: "Python_3")
        try FileManager.default.createDirectory(atPath: "\(h.www)/feeds", withIntermediateDirectories: true)
        try """
        <entry><version>3.12.1/2</version><url>\(h.url("feeds/Python_3.tgz"))</url>
        <other-versions><version><name>3.12.1</name></version><version><name>.9.6</name></version></other-versions>
        </entry>
        """.write(toFile: "\(h.www)/feeds/Python_3.xml", atomically: true, encoding: .utf8)
        try h.writeCatalogConfig(
            docsets: ["name = \"Python_3\"\nsource = \"kapeli\"\nversion = \"3.9.6\""], zeal: nil)
        let result = try await h.sync()
        #expect(result.status == 0, "\(result.lines)")
        #expect(h.installedManifest("Python_3") == old.expectedManifest)
        let asked = h.origin.accessLog().map(\.path)
        #expect(asked == ["/feeds/Python_3.xml", "/feeds/zzz/versions/Python_3/3.9.6/Python_3.tgz"], "\(asked)")
    }
}
