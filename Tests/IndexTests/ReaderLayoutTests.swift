import DocSync
import DocSyncInstall
import DocSyncSupport
import Foundation
import TestSupport
import Testing

/// Every layout real docsets use, installed as docsync installs them: Zeal's own load rules
/// (`ZealLoadRules`, from docset.cpp) accept each installed docset on a root it cannot write, every entry's URL
/// names an existing file, `verify` says intact, and reading changes nothing in the installed tree.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct ReaderLayoutTests {
    static let kinds = ["CUPS", "Beside", "Relative", "DashRefs"]

    static func fixture(_ kind: String, in parent: String) throws -> LayoutFixtures.Fixture {
        switch kind {
        case "CUPS": try LayoutFixtures.cups(in: parent)
        case "Beside": try LayoutFixtures.appleBeside(in: parent)
        case "Relative": try LayoutFixtures.documentationRelative(in: parent)
        default: try LayoutFixtures.dashRefs(in: parent)
        }
    }

    static func install(_ kind: String, dir: TemporaryDirectory) async throws -> (
        LayoutFixtures.Fixture, InstalledDocset, Installer
    ) {
        let fixture = try fixture(kind, in: dir.appending("sources"))
        try IndexFixture.archive(fixture.folder, to: dir.appending("\(kind).tgz"))
        let installer = Installer(root: dir.appending("root"))
        let record = try await installer.install(
            archive: dir.appending("\(kind).tgz"), as: InstallRequest(name: fixture.name, version: "1"))
        return (fixture, InstalledDocset(record), installer)
    }

    static func meta(_ docset: InstalledDocset) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: "\(docset.path)/meta.json"))
        return (try JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
    }

    @Test(arguments: kinds)
    func zealLoadsItAndEveryEntryOpens(kind: String) async throws {
        let dir = try TemporaryDirectory("reader-layout")
        defer { dir.remove() }
        let (fixture, docset, installer) = try await Self.install(kind, dir: dir)
        let before = try IndexFixture.hashes(docset.path)

        let zeal = try ZealLoadRules.check(docset.linkPath)
        #expect(zeal.problems.isEmpty, "\(kind): \(zeal.problems)")
        #expect(zeal.indexPage != nil, "\(kind): Zeal finds no start page")
        #expect(zeal.pages.count == fixture.entryCount)

        var entries: [DocsetEntry] = []
        for try await entry in docset.entries(scratchDirectory: dir.appending("scratch")) { entries.append(entry) }
        #expect(entries.count == fixture.entryCount)
        for entry in entries {
            #expect(entry.url.isFileURL, "\(entry)")
            #expect(FileManager.default.fileExists(atPath: entry.url.path), "\(kind): \(entry.name) -> \(entry.url)")
            #expect(FileManager.default.fileExists(atPath: "\(docset.documentsPath)/\(entry.page)"), "\(entry.page)")
            // The URL names the publisher's file, never docsync's link.
            #expect(!entry.url.path.contains("/Documents/Documentation/"))
        }
        let files = Set(entries.map { String($0.url.path.dropFirst(docset.path.count + "/Contents/Resources/".count)) })
        #expect(files == Set(fixture.files), "\(kind)")

        // Search hits resolve the same way.
        let index = DocsetIndex(
            docsets: [IndexedDocset(name: docset.name, version: docset.version, path: docset.path)],
            stateDirectory: dir.appending("state"))
        for entry in entries {
            let hits = index.searchBlocking(SearchQuery(entry.name, limit: 50)).hits.filter { $0.name == entry.name }
            #expect(hits.contains { $0.url == entry.url }, "\(kind): \(entry.name): \(hits.map(\.url))")
        }

        let verification = try await installer.verify(names: [fixture.name])
        #expect(verification.first?.status == .intact, "\(verification)")
        #expect(try IndexFixture.hashes(docset.path) == before, "reading changed the installed tree")
    }

    @Test func cupsGetsZealsLinkAndStartPageRecorded() async throws {
        let dir = try TemporaryDirectory("reader-layout")
        defer { dir.remove() }
        let (_, docset, _) = try await Self.install("CUPS", dir: dir)
        let resources = "\(docset.path)/Contents/Resources"
        let fm = FileManager.default
        #expect(try fm.destinationOfSymbolicLink(atPath: "\(resources)/Documents/Documentation") == "../Documentation")
        let extra = try Self.meta(docset)["extra"] as? [String: Any]
        #expect(extra?["indexFilePath"] as? String == "Documentation/help/api-cups.html")
        let prepared = (extra?["docsync"] as? [String: Any])?["prepared"] as? [String]
        #expect(
            prepared == [
                "wal-checkpoint", "zeal-index", "zeal-view", "documents-folder", "documentation-link", "index-page",
            ])
        // The publisher's files are where they were.
        #expect(fm.fileExists(atPath: "\(resources)/Documentation/help/api-cups.html"))
        #expect(try fm.contentsOfDirectory(atPath: "\(resources)/Documents") == ["Documentation"])
    }

    @Test func documentationRelativePathsGetADocumentsLink() async throws {
        let dir = try TemporaryDirectory("reader-layout")
        defer { dir.remove() }
        let (_, docset, _) = try await Self.install("Relative", dir: dir)
        let link = try FileManager.default.destinationOfSymbolicLink(
            atPath: "\(docset.path)/Contents/Resources/Documents")
        #expect(link == "Documentation")
        let extra = try Self.meta(docset)["extra"] as? [String: Any]
        #expect(extra?["indexFilePath"] == nil, "Zeal finds index.html through the link")
        #expect(((extra?["docsync"] as? [String: Any])?["prepared"] as? [String])?.last == "documents-link")
    }

    @Test func dashDocsetsAreLeftAsTheyCame() async throws {
        let dir = try TemporaryDirectory("reader-layout")
        defer { dir.remove() }
        let (_, docset, _) = try await Self.install("DashRefs", dir: dir)
        let extra = try Self.meta(docset)["extra"] as? [String: Any]
        #expect(extra?["indexFilePath"] == nil)
        #expect(((extra?["docsync"] as? [String: Any])?["prepared"] as? [String]) == ["zeal-index"])
        #expect(docset.linkPath.hasSuffix("/root/DashRefs.docset"))
        #expect(docset.documentsPath == docset.linkPath + "/Contents/Resources/Documents")
    }

    /// A docset no reader could open is a failure naming the path at fault, and nothing is published.
    @Test func unreadableDocsetFailsTheInstall() async throws {
        let dir = try TemporaryDirectory("reader-layout")
        defer { dir.remove() }
        let folder = try IndexFixture.skeleton("Broken", in: dir.appending("sources"))
        try Data("not a database, just text".utf8).write(
            to: URL(fileURLWithPath: "\(folder)/Contents/Resources/docSet.dsidx"))
        try IndexFixture.archive(folder, to: dir.appending("broken.tgz"))
        let installer = Installer(root: dir.appending("root"))
        await #expect {
            try await installer.install(archive: dir.appending("broken.tgz"), as: InstallRequest(name: "Broken"))
        } throws: { error in
            guard let error = error as? InstallError, case .unreadableDocset(let message) = error else { return false }
            return message.contains("docSet.dsidx") && error.isArchiveRejection
        }
        #expect(!FileManager.default.fileExists(atPath: dir.appending("root/Broken.docset")))
    }
}
