import DocSync
import Foundation
import TestSupport
import Testing

/// `[[docset]] versions = [...]`: catalogue versions kept side by side by a sync, each its own docset (the newest as
/// the catalogue's name, the others `NAME@VERSION`), each with a `meta.json` name and title of its own; changing
/// `versions` installs and removes only the difference.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct CatalogVersionsSyncTests {
    @Test func versionsInstallSideBySideAndOnlyTheDifferenceChanges() async throws {
        let h = try SyncHarness.inMemory()
        let latest = try DocsetFixture.make(version: "3.12.1", documents: 3)
        let old = try DocsetFixture.make(version: "3.11.4", documents: 2)
        try h.publish(latest, at: "feeds/Python_3.tgz", folder: "Python_3")
        try h.publish(old, at: "feeds/zzz/versions/Python_3/3.11.4/Python_3.tgz", folder: "Python_3")
        try h.writeZealCatalog([.init(name: "Python_3", title: "Python 3", versions: ["3.12.1", ".11.4"])])
        let zeal = "\(h.www)/zeal.json"  // a local file: the `docsync catalog` binary reads it too
        try h.writeCatalogConfig(
            docsets: ["name = \"Python_3\"\nversions = [\"3.11.4\", \"latest\"]"], zeal: zeal, extra: "prune = true")

        let first = try await h.sync()
        #expect(first.status == 0, "\(first.lines)")
        #expect(SyncHarness.names(first.events, "installed") == ["Python_3", "Python_3@3.11.4"])
        #expect(h.installedManifest("Python_3@3.11.4")?.filter { !$0.key.hasPrefix("icon") } == old.expectedManifest)
        #expect(h.installedManifest("Python_3")?.filter { !$0.key.hasPrefix("icon") } == latest.expectedManifest)
        let kept = [("Python_3", "Python 3 3.12.1", "3.12.1"), ("Python_3@3.11.4", "Python 3 3.11.4", "3.11.4")]
        for (folder, title, version) in kept {
            let meta = try #require(
                try JSONSerialization.jsonObject(
                    with: Data(contentsOf: URL(fileURLWithPath: "\(h.root)/\(folder).docset/meta.json")))
                    as? [String: Any])
            #expect(meta["name"] as? String == folder && meta["title"] as? String == title, "\(meta)")
            #expect(meta["version"] as? String == version)
        }

        // The lock pins each version, by its own name.
        let lock = try Tool.run(Tool.docsyncBinary, ["lock", "--stdout", "--config", h.configPath])
        #expect(lock.status == 0, "\(lock)")
        let locked = try JSONSerialization.jsonObject(with: Data(lock.standardOutput.utf8)) as? [String: Any]
        let entries = (locked?["docsets"] as? [[String: Any]] ?? []).map { "\($0["name"]!) \($0["version"]!)" }
        #expect(entries.sorted() == ["Python_3 3.12.1", "Python_3@3.11.4 3.11.4"], "\(lock.standardOutput)")

        // The catalogue shows the versions installed.
        let catalog = try Tool.run(Tool.docsyncBinary, ["catalog", "--json", "--config", h.configPath])
        let listing = try JSONSerialization.jsonObject(with: Data(catalog.standardOutput.utf8)) as? [String: Any]
        let row = (listing?["docsets"] as? [[String: Any]])?.first
        #expect(row?["installed"] as? String == "3.12.1", "\(catalog)")
        #expect(row?["side_by_side"] as? [String] == ["3.11.4"], "\(catalog)")
        let table = try Tool.run(Tool.docsyncBinary, ["catalog", "--config", h.configPath])
        #expect(table.standardOutput.contains("side by side: 3.11.4"), "\(table.standardOutput)")

        let again = try await h.sync()
        #expect(SyncHarness.names(again.events, "unchanged") == ["Python_3", "Python_3@3.11.4"], "\(again.lines)")

        // A new latest release: the version following "latest" moves, the pinned one stays.
        let newer = try DocsetFixture.make(version: "3.13.0", documents: 2)
        try h.publish(newer, at: "feeds/Python_3.tgz", folder: "Python_3")
        try h.writeZealCatalog([.init(name: "Python_3", title: "Python 3", versions: ["3.13.0", ".11.4"])])
        let moved = try await h.sync()
        #expect(SyncHarness.names(moved.events, "updated") == ["Python_3"], "\(moved.lines)")
        #expect(SyncHarness.names(moved.events, "unchanged") == ["Python_3@3.11.4"], "\(moved.lines)")
        #expect(h.installedManifest("Python_3")?.filter { !$0.key.hasPrefix("icon") } == newer.expectedManifest)

        // Dropping the pinned version removes only it.
        try h.writeCatalogConfig(
            docsets: ["name = \"Python_3\"\nversions = [\"latest\"]"], zeal: zeal, extra: "prune = true")
        let dropped = try await h.sync()
        #expect(SyncHarness.names(dropped.events, "unchanged") == ["Python_3"], "\(dropped.lines)")
        #expect(SyncHarness.names(dropped.events, "removed") == ["Python_3@3.11.4"], "\(dropped.lines)")
        #expect(!FileManager.default.fileExists(atPath: "\(h.root)/Python_3@3.11.4.docset"))

        // Adding it back installs only it.
        try h.writeCatalogConfig(
            docsets: ["name = \"Python_3\"\nversions = [\"latest\", \"3.11.4\"]"], zeal: zeal, extra: "prune = true")
        let added = try await h.sync()
        #expect(SyncHarness.names(added.events, "installed") == ["Python_3@3.11.4"], "\(added.lines)")
        #expect(SyncHarness.names(added.events, "unchanged") == ["Python_3"], "\(added.lines)")
    }
}
