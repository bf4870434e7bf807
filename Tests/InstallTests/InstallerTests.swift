import DocSync
import DocSyncInstall
import DocSyncSupport
import Foundation
import TestSupport
import Testing

/// The installer's bookkeeping: listing, removal, grace period, foreign folders, crash leftovers, preflight checks.
@Suite(.timeLimit(.minutes(10))) struct InstallerTests {
    private func archive(_ h: InstallHarness, version: String, rows: Int = 3) throws -> String {
        let path = h.archive("\(version).tgz")
        try DocsetFixture.make(version: version, indexRows: rows).writeArchive(to: path)
        return path
    }

    private func entries(_ path: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }

    @Test func listsInstalledDocsetsWithTheirRecord() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let path = try archive(h, version: "7.1")
        let request = InstallRequest(
            name: "Alpha", title: "Alpha Docs", version: "7.1", revision: "3", feedURL: "https://example.org/Alpha.xml",
            urls: ["https://example.org/Alpha.tgz"], identifier: "org.example.alpha",
            sourceURL: "https://example.org/Alpha.tgz")
        let installed = try await h.installer.install(archive: path, as: request)
        _ = try await h.installer.install(archive: path, as: InstallRequest(name: "Beta"))
        let listed = try h.installer.installedDocsets()
        #expect(listed.map(\.name) == ["Alpha", "Beta"])
        let alpha = try #require(listed.first)
        #expect(alpha == installed)
        #expect(alpha.identifier == "org.example.alpha")
        #expect(alpha.archiveSHA256 == SHA256.hash(try Data(contentsOf: URL(fileURLWithPath: path))).description)
        #expect(SQLiteIndex.count(alpha.indexPath) == 3)
        let meta = try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: "\(alpha.path)/meta.json")))
        let object = try #require(meta as? [String: Any])
        #expect(object["name"] as? String == "Alpha")
        #expect(object["title"] as? String == "Alpha Docs")
        #expect(object["version"] as? String == "7.1")
        #expect(object["revision"] as? String == "3")
        // A local archive (`docsync install`): Zeal would write no feed_url or urls; host facts stay out of it.
        #expect(object["feed_url"] == nil)
        #expect(object["urls"] == nil)
        let record = (object["extra"] as? [String: Any])?["docsync"] as? [String: Any]
        #expect(record?["source_url"] == nil)
        #expect(record?["installed_at"] == nil)
        #expect(alpha.sourceURL == "https://example.org/Alpha.tgz")
        #expect(alpha.feedURL == "https://example.org/Alpha.xml")
        #expect(alpha.urls == ["https://example.org/Alpha.tgz"])
        #expect(alpha.installedAt != nil)
        #expect(
            record?["archive_size"] as? Int
                == Int(try FileManager.default.attributesOfItem(atPath: path)[.size] as! UInt64))
    }

    @Test func removeTakesTheDocsetAwayButKeepsItsFilesForTheGracePeriod() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let installed = try await h.installer.install(
            archive: try archive(h, version: "1"), as: InstallRequest(name: h.name))
        try await h.installer.remove(name: h.name)
        #expect(try h.installer.installedDocsets().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: h.docsetPath))
        #expect(SQLiteIndex.count(installed.indexPath) == 3, "a reader's resolved path must outlive the removal")
        await #expect(throws: InstallError.self) { try await h.installer.remove(name: h.name) }
    }

    @Test func replacedVersionStaysReadableUntilTheGracePeriodEnds() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let first = try await h.installer.install(
            archive: try archive(h, version: "1"), as: InstallRequest(name: h.name))
        let second = try await h.installer.install(
            archive: try archive(h, version: "2", rows: 5), as: InstallRequest(name: h.name))
        await h.installer.waitForBackgroundWork()
        #expect(first.path != second.path)
        #expect(SQLiteIndex.count(first.path + "/Contents/Resources/docSet.dsidx") == 3)
        #expect(SQLiteIndex.count(h.docsetPath + "/Contents/Resources/docSet.dsidx") == 5)

        // Another installer with no grace period collects it on its next change of the root.
        let impatient = Installer(root: h.root, configuration: InstallConfiguration(gracePeriod: .zero))
        _ = try await impatient.install(archive: try archive(h, version: "3"), as: InstallRequest(name: h.name))
        await impatient.waitForBackgroundWork()
        #expect(!FileManager.default.fileExists(atPath: first.path))
        #expect(!FileManager.default.fileExists(atPath: second.path))
        #expect(try entries("\(h.root)/.docsync/versions").count == 1)
        #expect(try entries("\(h.root)/.docsync/trash").isEmpty)
    }

    /// With `replaceForeign`: (never without it, see ForeignFolderTests) a folder installed by another tool
    /// is exchanged for the link atomically and kept in `.docsync/foreign/`, never retired or deleted.
    @Test func replacesADocsetFolderInstalledByAnotherTool() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let foreign = try DocsetFixture.make(version: "zeal")
        try foreign.writeTree(to: h.docsetPath)
        let installer = Installer(root: h.root, configuration: InstallConfiguration(replaceForeign: true))
        let installed = try await installer.install(
            archive: try archive(h, version: "1"), as: InstallRequest(name: h.name))
        let attributes = try FileManager.default.attributesOfItem(atPath: h.docsetPath)
        #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink)
        #expect(try installer.installedDocsets().map(\.path) == [installed.path])
        let aside = try entries("\(h.root)/.docsync/foreign")
        #expect(aside.count == 1)
        #expect(try entries("\(h.root)/.docsync/retired").isEmpty)
        #expect(try TreeSnapshot.of("\(h.root)/.docsync/foreign/\(aside[0])") == foreign.writtenManifest)
    }

    @Test func crashLeftoversAreClearedOnTheNextRun() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        try await h.installOld()
        let staging = "\(h.root)/.docsync/staging/crashed/Contents/Resources"
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        try Data("half".utf8).write(to: URL(fileURLWithPath: "\(staging)/half.html"))
        // A leftover link pointing outside must be unlinked, never followed.
        try FileManager.default.createSymbolicLink(atPath: "\(staging)/escape", withDestinationPath: h.victim)
        try FileManager.default.createSymbolicLink(
            atPath: "\(h.root)/.docsync/link-crashed", withDestinationPath: ".docsync/versions/nothing")
        _ = try await h.installer.install(archive: try archive(h, version: "2"), as: InstallRequest(name: h.name))
        await h.installer.waitForBackgroundWork()
        #expect(try entries("\(h.root)/.docsync/staging").isEmpty)
        #expect(try entries("\(h.root)/.docsync/trash").isEmpty)
        #expect(!FileManager.default.fileExists(atPath: "\(h.root)/.docsync/link-crashed"))
        #expect(try String(contentsOfFile: "\(h.victim)/precious.txt", encoding: .utf8) == "precious\n")
        #expect(try entries(h.root) == [".docsync", "Fixture.docset"])
    }

    @Test func refusesNamesThatAreNotOneFolderName() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let path = try archive(h, version: "1")
        for name in ["", "../up", ".hidden", "a/b"] {
            await #expect(throws: InstallError.self) {
                try await h.installer.install(archive: path, as: InstallRequest(name: name))
            }
        }
        #expect(!FileManager.default.fileExists(atPath: h.root))
    }

    @Test func checksFreeSpaceFirst() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        try await h.installOld()
        let greedy = Installer(root: h.root, configuration: InstallConfiguration(assumedExpansion: 1 << 40))
        let before = try h.snapshot()
        await #expect {
            try await greedy.install(archive: try archive(h, version: "2"), as: InstallRequest(name: h.name))
        } throws: { error in
            guard case .insufficientSpace = error as? InstallError else { return false }
            return true
        }
        #expect(try h.snapshot() == before)
    }

    /// A source that cannot seek and delivers a few bytes per read, like a download still in progress.
    final class TrickleSource: ArchiveSource {
        let file: FileArchiveSource
        init(_ path: String) throws { file = try FileArchiveSource(path: path) }
        var byteCount: Int64? { file.byteCount }
        var displayName: String { "trickle" }
        func seek(to offset: Int64, whence: Int32) -> Int64? { nil }
        func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
            try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer.prefix(777)))
        }
    }

    @Test func installsFromANonSeekableTrickleSource() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let fixture = try DocsetFixture.make(version: "1")
        let path = h.archive("trickle.tgz")
        try fixture.writeArchive(to: path)
        let installed = try await h.installer.install(source: try TrickleSource(path), as: InstallRequest(name: h.name))
        #expect(try TreeSnapshot.of(installed.path) == fixture.expectedManifest)
        #expect(installed.archiveSHA256 == SHA256.hash(try Data(contentsOf: URL(fileURLWithPath: path))).description)
    }
}
