import DocSync
import Foundation
import TestSupport
import Testing

/// `[[docset]] source = "kapeli"` with `versions = [...]`, over nginx on loopback with Kapeli's layout: the feed's
/// `<other-versions>` name the older versions, whose archives are at `feeds/zzz/versions/NAME/VERSION/NAME.tgz`. Each
/// kept version is its own docset with a `meta.json` name and title of its own; a pinned version stays while the one
/// following "latest" moves; changing `versions` downloads and removes only the difference; a `[[group]]` member
/// naming a version the selection does not keep is refused at load, nothing changed on disk.
@Suite(
    .enabled(if: Nginx.isInstalled, "nginx is not installed (scripts/bootstrap installs it)"),
    .timeLimit(.minutes(10)), .blockingWaits)
struct KapeliVersionsSyncTests {
    static let latest = "feeds/Python_3.tgz"
    static func older(_ version: String) -> String { "feeds/zzz/versions/Python_3/\(version)/Python_3.tgz" }

    /// Kapeli's feed for Python_3: `latest` at `feeds/Python_3.tgz`, `others` (as Kapeli writes them: `.11.4`).
    func writeFeed(_ h: SyncHarness, latest: String, others: [String]) throws {
        let names = others.map { "<version><name>\($0)</name></version>" }.joined()
        try ServedFile.write(
            "<entry><version>\(latest)/2</version><ios_version>1</ios_version><url>\(h.url(Self.latest))</url>"
                + "<other-versions>\(names)</other-versions></entry>\n",
            to: "\(h.www)/feeds/Python_3.xml")
        try h.bumpModificationTime("feeds/Python_3.xml")
    }

    func writeConfig(_ h: SyncHarness, versions: [String], group: [String] = []) throws {
        let list = versions.map { "\"\($0)\"" }.joined(separator: ", ")
        var extra = "prune = true"
        if !group.isEmpty {
            extra += "\n[[group]]\nname = \"py\"\ndocsets = [\(group.map { "\"\($0)\"" }.joined(separator: ", "))]"
        }
        try h.writeCatalogConfig(
            docsets: ["name = \"Python_3\"\nsource = \"kapeli\"\nversions = [\(list)]"], zeal: nil, extra: extra)
    }

    /// Syncs with the binary; returns the JSON events and the archives fetched (GET paths ending in `.tgz`).
    func sync(_ h: SyncHarness) throws -> (events: [[String: Any]], archives: [String], lines: String) {
        let before = h.nginx.accessLog().count
        let result = try h.run(["sync", "--json"])
        #expect(result.status == 0, "\(result.standardError)\(result.standardOutput)")
        let archives = h.nginx.accessLog().dropFirst(before).filter { $0.method == "GET" && $0.uri.hasSuffix(".tgz") }
        return (SyncHarness.events(result), archives.map(\.uri).sorted(), result.standardOutput)
    }

    func meta(_ h: SyncHarness, _ folder: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: "\(h.root)/\(folder).docset/meta.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func otherVersionsInstallSideBySideAndOnlyTheDifferenceMoves() throws {
        let h = try SyncHarness()
        let v12 = try DocsetFixture.make(version: "3.12.1", documents: 3)
        let v11 = try DocsetFixture.make(version: "3.11.4", documents: 2)
        let v10 = try DocsetFixture.make(version: "3.10.0", documents: 1)
        try h.publish(v12, at: Self.latest, folder: "Python_3")
        try h.publish(v11, at: Self.older("3.11.4"), folder: "Python_3")
        try h.publish(v10, at: Self.older("3.10.0"), folder: "Python_3")
        try writeFeed(h, latest: "3.12.1", others: ["3.12.1", ".11.4", ".10.0"])
        try writeConfig(h, versions: ["3.11.4", "latest"])

        let first = try sync(h)
        #expect(SyncHarness.names(first.events, "installed") == ["Python_3", "Python_3@3.11.4"], "\(first.lines)")
        #expect(first.archives == ["/\(Self.latest)", "/\(Self.older("3.11.4"))"])
        #expect(h.installedManifest("Python_3") == v12.expectedManifest)
        #expect(h.installedManifest("Python_3@3.11.4") == v11.expectedManifest)
        var names: Set<String> = []
        for (folder, title, version) in [
            ("Python_3", "Python_3 3.12.1", "3.12.1"), ("Python_3@3.11.4", "Python_3 3.11.4", "3.11.4"),
        ] {
            let meta = try meta(h, folder)
            #expect(meta["name"] as? String == folder && meta["title"] as? String == title, "\(meta)")
            #expect(meta["version"] as? String == version, "\(meta)")
            names.insert(try #require(ZealReader(docset: "\(h.root)/\(folder).docset")).name)
        }
        #expect(names.count == 2, "Zeal keys docsets by name: each version needs its own")

        // Nothing new: nothing downloaded.
        let again = try sync(h)
        #expect(SyncHarness.names(again.events, "unchanged") == ["Python_3", "Python_3@3.11.4"], "\(again.lines)")
        #expect(again.archives.isEmpty)

        // A new latest release: the version following "latest" moves, the pinned one stays (not fetched again).
        let v13 = try DocsetFixture.make(version: "3.13.0", documents: 2)
        try h.publish(v13, at: Self.latest, folder: "Python_3")
        try h.bumpModificationTime(Self.latest)
        try writeFeed(h, latest: "3.13.0", others: ["3.13.0", ".12.1", ".11.4", ".10.0"])
        let moved = try sync(h)
        #expect(SyncHarness.names(moved.events, "updated") == ["Python_3"], "\(moved.lines)")
        #expect(SyncHarness.names(moved.events, "unchanged") == ["Python_3@3.11.4"], "\(moved.lines)")
        #expect(moved.archives == ["/\(Self.latest)"])
        #expect(h.installedManifest("Python_3") == v13.expectedManifest)
        #expect(h.installedManifest("Python_3@3.11.4") == v11.expectedManifest)

        // Adding a version downloads only it.
        try writeConfig(h, versions: ["3.10.0", "3.11.4", "latest"])
        let added = try sync(h)
        #expect(SyncHarness.names(added.events, "installed") == ["Python_3@3.10.0"], "\(added.lines)")
        #expect(SyncHarness.names(added.events, "unchanged") == ["Python_3", "Python_3@3.11.4"], "\(added.lines)")
        #expect(added.archives == ["/\(Self.older("3.10.0"))"])
        #expect(h.installedManifest("Python_3@3.10.0") == v10.expectedManifest)

        // A group naming a version the selection does not keep: refused at load with the key named, nothing changed.
        let before = try FileManager.default.contentsOfDirectory(atPath: h.root).sorted()
        try writeConfig(h, versions: ["3.10.0", "3.13.0"], group: ["Python_3@3.10.0", "Python_3@3.11.4"])
        let refused = try h.run(["sync", "--json"])
        #expect(refused.status == 78, "\(refused)")
        #expect(refused.standardError.contains("group[1].docsets[2]"), "\(refused.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: h.root).sorted() == before)
        #expect(h.installedManifest("Python_3@3.11.4") == v11.expectedManifest)

        // Dropping a version removes only it, downloading nothing.
        try writeConfig(h, versions: ["3.10.0", "latest"], group: ["Python_3@3.10.0"])
        let dropped = try sync(h)
        #expect(SyncHarness.names(dropped.events, "removed") == ["Python_3@3.11.4"], "\(dropped.lines)")
        #expect(SyncHarness.names(dropped.events, "unchanged") == ["Python_3", "Python_3@3.10.0"], "\(dropped.lines)")
        #expect(dropped.archives.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: "\(h.root)/Python_3@3.11.4.docset"))
        #expect(h.installedManifest("Python_3@3.10.0") == v10.expectedManifest)
    }
}
