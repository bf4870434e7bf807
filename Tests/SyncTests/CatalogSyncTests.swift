import DocSync
import Foundation
import TestSupport
import Testing

/// `[[docset]] name = …`: docsets chosen by catalogue name, end to end (real binary, real nginx).
@Suite(.timeLimit(.minutes(10))) struct CatalogSyncTests {
    @Test func aDocsetChosenByAliasInstallsAndANoOpSyncCostsOneRevalidation() throws {
        let h = try SyncHarness()
        let python = try DocsetFixture.make(version: "3.12.1", documents: 4)
        try h.publish(python, at: "feeds/Python_3.tgz", folder: "Python_3")
        try h.writeZealCatalog([
            .init(name: "Python_3", title: "Python 3", versions: ["3.12.1", ".11.4"], revision: "2", aliases: ["py3"])
        ])
        try h.writeCatalogConfig(docsets: ["name = \"PY3\""])

        let first = try h.run(["sync", "--json"])
        #expect(first.status == 0, "\(first.standardError)\(first.standardOutput)")
        #expect(SyncHarness.names(SyncHarness.events(first), "installed") == ["Python_3"])
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

        let before = h.nginx.accessLog().count
        let second = try h.run(["sync", "--json"])
        #expect(second.status == 0, "\(second.standardError)")
        #expect(SyncHarness.names(SyncHarness.events(second), "unchanged") == ["Python_3"])
        let requests = h.nginx.accessLog().dropFirst(before)
        #expect(requests.map(\.status) == [304], "one revalidation of the catalogue, nothing else: \(requests)")
    }

    @Test func aPinnedVersionComesFromTheVersionsFolderAndAMissIsExplained() throws {
        let h = try SyncHarness()
        let old = try DocsetFixture.make(version: "3.11.4", documents: 3)
        try h.publish(old, at: "feeds/zzz/versions/Python_3/3.11.4/Python_3.tgz", folder: "Python_3")
        try h.writeZealCatalog([.init(name: "Python_3", title: "Python 3", versions: ["3.12.1", ".11.4"])])
        try h.writeCatalogConfig(docsets: ["name = \"Python_3\"\nversion = \"3.11.4\"", "name = \"Pythn_3\""])

        let result = try h.run(["sync", "--json"])
        #expect(result.status == 3, "one docset is skipped")
        let events = SyncHarness.events(result)
        #expect(SyncHarness.names(events, "installed") == ["Python_3"])
        #expect(h.installedManifest("Python_3")?.filter { !$0.key.hasPrefix("icon") } == old.expectedManifest)
        let skip = events.first { $0["event"] as? String == "skipped" }
        let reason = skip?["reason"] as? String ?? ""
        #expect(reason.contains("did you mean \"Python_3\"?"), "\(reason)")
    }

    @Test func contributionsInstallWithTheirSpecificVersionsAndKeepTheArchivesIcon() throws {
        let h = try SyncHarness()
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
        let result = try h.run(["sync", "--json"])
        #expect(result.status == 0, "\(result.standardError)\(result.standardOutput)")
        // The archive's own icon.png wins; the missing icon@2x.png comes from the index.
        #expect(h.installedManifest("Jest")?.filter { $0.key != "icon@2x.png" } == jest.expectedManifest)
        #expect(FileManager.default.contents(atPath: "\(h.root)/Jest.docset/icon@2x.png") != nil)
        // No feed_url for Zeal to fetch (a contribution has no feed); docsync keeps its origin in the host record.
        let meta = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: "\(h.root)/Jest.docset/meta.json"))) as? [String: Any])
        #expect(meta["feed_url"] == nil)
        #expect(((meta["extra"] as? [String: Any])?["docsync"] as? [String: Any])?["arrival"] as? String == "catalog")
        let installed = try SyncEngine(configuration: try h.configuration()).installedDocsets()
        #expect(installed.first?.feedURL == "catalog:contrib/Jest")
    }

    @Test func anUnreadableCatalogueNeverPrunes() throws {
        let h = try SyncHarness()
        try h.publish(try DocsetFixture.make(version: "1"), at: "feeds/Go.tgz", folder: "Go")
        try h.writeZealCatalog([.init(name: "Go", title: "Go", versions: ["1"])])
        try h.writeCatalogConfig(docsets: ["name = \"Go\""], extra: "prune = true")
        #expect(try h.run(["sync"]).status == 0)
        try "<html>maintenance</html>".write(toFile: "\(h.www)/zeal.json", atomically: true, encoding: .utf8)
        let result = try h.run(["sync", "--json", "--refresh"])
        #expect(result.status == 3)
        #expect(SyncHarness.names(SyncHarness.events(result), "removed").isEmpty)
        #expect(FileManager.default.fileExists(atPath: "\(h.root)/Go.docset/Contents/Info.plist"))
    }

    @Test func catalogListsAndAddDropEditTheConfig() throws {
        let h = try SyncHarness()
        try h.publish(try DocsetFixture.make(version: "1.21"), at: "feeds/Go.tgz", folder: "Go")
        try h.writeZealCatalog([
            .init(name: "Go", title: "Go", versions: ["1.21"], aliases: ["golang"]),
            .init(name: "Python_3", title: "Python 3", versions: ["3.12.1"]),
            .init(name: "Bash", title: "Bash", versions: ["5.2"]),
        ])
        try h.writeCatalogConfig(docsets: [])
        let original = try String(contentsOfFile: h.configPath, encoding: .utf8)

        let unknown = try h.run(["add", "Pythn_3"])
        #expect(unknown.status == 65)
        #expect(unknown.standardError.contains("did you mean Python_3?"), "\(unknown.standardError)")
        let dry = try h.run(["add", "golang", "--dry-run"])
        #expect(dry.status == 0, "\(dry.standardError)")
        #expect(dry.standardOutput.contains("+[[docset]]\n+name = \"Go\""), "\(dry.standardOutput)")
        #expect(try String(contentsOfFile: h.configPath, encoding: .utf8) == original)

        #expect(try h.run(["add", "golang"]).status == 0)
        #expect(try h.configuration().docsets == [.init(name: "Go")])
        #expect(try h.run(["sync"]).status == 0)

        let listed = try h.run(["catalog", "--json"])
        #expect(listed.status == 0, "\(listed.standardError)")
        let listing = try #require(
            try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [String: Any])
        #expect(listing["schema"] as? Int == 1)
        let rows = try #require(listing["docsets"] as? [[String: Any]])
        #expect(rows.compactMap { $0["name"] as? String } == ["Bash", "Go", "Python_3"])
        #expect(rows[1]["installed"] as? String == "1.21" && rows[1]["latest"] as? String == "1.21")
        #expect(rows[1]["status"] as? String == "up to date")
        // Every member is always there, null when there is none.
        #expect(rows[0]["installed"] is NSNull && rows[0]["status"] is NSNull)
        #expect(rows[0]["installed_revision"] is NSNull)
        #expect(rows.allSatisfy { Set($0.keys).isSuperset(of: ["latest", "installed", "latest_revision", "status"]) })
        let table = try h.run(["catalog", "go"])
        #expect(table.standardOutput.contains("1.21 (up to date)"), "\(table.standardOutput)")
        let search = try h.run(["catalog", "pyth"])
        #expect(search.standardOutput.split(separator: "\n").dropFirst().map { $0.prefix(8) } == ["Python_3"])

        #expect(try h.run(["drop", "go"]).status == 0)
        #expect(try String(contentsOfFile: h.configPath, encoding: .utf8) == original)
        #expect(try h.run(["drop", "go"]).status == 65)
    }

    @Test func kapeliFeedsResolveOtherVersionsWithADotPrefix() throws {
        let h = try SyncHarness()
        let old = try DocsetFixture.make(version: "3.9.6", documents: 2)
        try h.publish(old, at: "feeds/zzz/versions/Python_3/3.9.6/Python_3.tgz", folder: "Python_3")
        try FileManager.default.createDirectory(atPath: "\(h.www)/feeds", withIntermediateDirectories: true)
        try """
        <entry><version>3.12.1/2</version><url>\(h.nginx.url("feeds/Python_3.tgz"))</url>
        <other-versions><version><name>3.12.1</name></version><version><name>.9.6</name></version></other-versions>
        </entry>
        """.write(toFile: "\(h.www)/feeds/Python_3.xml", atomically: true, encoding: .utf8)
        try h.writeCatalogConfig(
            docsets: ["name = \"Python_3\"\nsource = \"kapeli\"\nversion = \"3.9.6\""], zeal: nil)
        let result = try h.run(["sync", "--json"])
        #expect(result.status == 0, "\(result.standardError)\(result.standardOutput)")
        #expect(h.installedManifest("Python_3") == old.expectedManifest)
        let asked = h.nginx.accessLog().map(\.uri)
        #expect(asked == ["/feeds/Python_3.xml", "/feeds/zzz/versions/Python_3/3.9.6/Python_3.tgz"], "\(asked)")
    }
}
