import DocSync
import DocSyncCLI
import DocSyncCatalog
import Foundation
import TestSupport
import Testing

/// `docsync adopt`: a folder Zeal made becomes docsync-managed without a byte changing, then updates normally.
/// The binary reads the catalogue as a local file (adopt and a sync with nothing to fetch ask no server); the update
/// downloads in process from a `MemoryOrigin`.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct AdoptTests {
    @Test func aZealFolderIsAdoptedUnchangedThenUpdatedBySync() async throws {
        let h = try SyncHarness.inMemory()
        // What Zeal left: Go.docset with its meta.json, Bash.docset without one (matched by CFBundleName),
        // Private.docset that no catalogue knows.
        let zealGo = try DocsetFixture.make(version: "1.20", documents: 3)
        try zealGo.writeTree(to: "\(h.root)/Go.docset")
        let meta = #"{"name": "Go", "title": "Go", "version": "1.20", "extra": {"indexFilePath": "index.html"}}"#
        try meta.write(toFile: "\(h.root)/Go.docset/meta.json", atomically: true, encoding: .utf8)
        var bash = try DocsetFixture.make(version: "5", documents: 2)
        bash.files["Contents/Info.plist"]!.data = Array(
            String(decoding: bash.files["Contents/Info.plist"]!.data, as: UTF8.self)
                .replacingOccurrences(of: "<string>Fixture</string>", with: "<string>Bash</string>").utf8)
        try bash.writeTree(to: "\(h.root)/Bash Docs.docset")
        try DocsetFixture.make(version: "1").writeTree(to: "\(h.root)/Private.docset")
        func manifest() throws -> [String: String] {
            try TreeSnapshot.of(
                URL(fileURLWithPath: "\(h.root)/Go.docset").resolvingSymlinksInPath().path, excluding: [])
        }
        let before = try manifest()

        try h.writeZealCatalog([
            .init(name: "Go", title: "Go", versions: ["1.20"]), .init(name: "Bash", title: "Bash", versions: ["5"]),
        ])
        // Bash (adopted without a version) is planned again and fails at once: no server, no retries.
        try h.writeCatalogConfig(docsets: [], zeal: "\(h.www)/zeal.json", extra: "[network]\nretries = 0")

        let adopt = try h.run(["adopt"])
        #expect(adopt.status == 3, "Private.docset is not matched: \(adopt.standardError)")
        #expect(adopt.standardOutput.contains("not matched  Private.docset"), "\(adopt.standardOutput)")
        #expect(adopt.standardOutput.contains("adopted      Go.docset as Go from zeal at 1.20"))
        #expect(adopt.standardOutput.contains("adopted      Bash Docs.docset as Bash"))
        // Go.docset is now a link into .docsync/versions/, its contents byte-identical (meta.json included).
        let link = try FileManager.default.destinationOfSymbolicLink(atPath: "\(h.root)/Go.docset")
        #expect(link.hasPrefix(".docsync/versions/Go@adopted-"))
        #expect(try manifest() == before)
        let privateType = try FileManager.default.attributesOfItem(atPath: "\(h.root)/Private.docset")[.type]
        #expect(privateType as? FileAttributeType == .typeDirectory)
        #expect(try h.configuration().docsets.map(\.name) == ["Bash", "Go"])
        // A folder named otherwise is shown under its catalogue name from now on, so sync finds it.
        #expect(!FileManager.default.fileExists(atPath: "\(h.root)/Bash Docs.docset"))
        let bashLink = try FileManager.default.destinationOfSymbolicLink(atPath: "\(h.root)/Bash.docset")
        #expect(bashLink.hasPrefix(".docsync/versions/Bash@adopted-"))

        // Nothing is downloaded while the catalogue offers what is there.
        let same = try h.run(["sync", "--json"])
        #expect(SyncHarness.names(SyncHarness.events(same), "unchanged") == ["Go"], "\(same.standardOutput)")
        #expect(SyncHarness.names(SyncHarness.events(same), "installed").isEmpty, "Bash is not installed twice")
        // That sync text-indexed the adopted docset from its pages in place (nothing downloaded).
        let text = try h.run(["search", "--text", "paragraph", "--docset", "Go", "--json"])
        #expect(text.status == 0, "\(text.standardError)")
        #expect(text.standardOutput.contains("page0.html"), "\(text.standardOutput)")

        // A newer Go in the catalogue: the adopted docset is updated through the normal atomic path.
        let newGo = try DocsetFixture.make(version: "1.21.0", documents: 4)
        try h.publish(newGo, at: "feeds/Go.tgz", folder: "Go")
        try h.writeZealCatalog([
            .init(name: "Go", title: "Go", versions: ["1.21.0"]), .init(name: "Bash", title: "Bash", versions: ["5"]),
        ])
        let update = try await h.sync(SyncOptions(only: ["Go"]))
        #expect(update.status == 0, "\(update.lines)")
        #expect(update.names("updated") == ["Go"], "\(update.lines)")
        #expect(h.installedManifest("Go")?.filter { !$0.key.hasPrefix("icon") } == newGo.expectedManifest)
        let newLink = try FileManager.default.destinationOfSymbolicLink(atPath: "\(h.root)/Go.docset")
        #expect(!newLink.contains("adopted"))
    }

    @Test(arguments: [
        (Adoption.Found(folder: "x", metaName: "Go"), "Go"),
        (Adoption.Found(folder: "x", metaFeedURL: "https://kapeli.com/feeds/Bash.xml"), "Bash"),
        (Adoption.Found(folder: "x", bundleName: "bash"), "Bash"),
        (Adoption.Found(folder: "Go"), "Go"),
        (Adoption.Found(folder: "Nope", bundleName: "Nothing"), nil),
    ])
    func matching(found: Adoption.Found, expected: String?) throws {
        let catalog = Catalog(
            source: .zeal, entries: [.init(source: .zeal, name: "Go"), .init(source: .zeal, name: "Bash")])
        #expect(Adoption.match(found, in: CatalogShelf(catalogs: [catalog]))?.name == expected)
    }
}
