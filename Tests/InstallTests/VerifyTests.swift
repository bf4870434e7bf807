import DocSync
import DocSyncInstall
import DocSyncSupport
import Foundation
import TestSupport
import Testing

/// Damage to an installed tree is noticed by `verify` (manifest recorded at install).
@Suite(.timeLimit(.minutes(10))) struct VerifyTests {
    @Test func anIntactInstallVerifiesAndDamageIsReported() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let installed = try await h.installOld()
        #expect(try await h.installer.verify(names: [h.name]).map(\.status) == [.intact])
        // The manifest lives beside the tree, not in it.
        #expect(!FileManager.default.fileExists(atPath: "\(installed.path)/manifest"))

        try FileManager.default.removeItem(atPath: "\(installed.path)/Contents/Info.plist")
        try Data("changed".utf8).write(to: URL(fileURLWithPath: "\(installed.path)/meta.json"))
        try Data("extra".utf8).write(to: URL(fileURLWithPath: "\(installed.path)/Contents/extra.txt"))
        let result = try #require(try await h.installer.verify().first)
        guard case .damaged(let problems) = result.status else {
            Issue.record("damage not noticed: \(result)")
            return
        }
        #expect(problems.contains("missing Contents/Info.plist"), "\(problems)")
        #expect(problems.contains { $0.hasPrefix("changed meta.json") }, "\(problems)")
        #expect(problems.contains("unexpected Contents/extra.txt"), "\(problems)")
    }

    @Test func aContentChangeOfTheSameSizeIsNoticed() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let installed = try await h.installOld()
        let page = "\(installed.path)/Contents/Resources/Documents/page0.html"
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: page)))
        bytes[0] ^= 1
        try Data(bytes).write(to: URL(fileURLWithPath: page))
        let status = try await h.installer.verify(names: [h.name]).first?.status
        #expect(status == .damaged(["changed Contents/Resources/Documents/page0.html (content)"]))
    }

    @Test func aForeignFolderIsUnverifiableNotDamaged() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        try FileManager.default.createDirectory(atPath: h.docsetPath, withIntermediateDirectories: true)
        let result = try await h.installer.verify(names: [h.name])
        #expect(result.first?.isDamaged == false)
    }

    /// The manifest is recorded while the tree is written (no second read). What the installer changes
    /// after extraction (the index the Zeal preparation completes, meta.json, catalogue icons) and what the archive
    /// repeats (last wins) or names oddly must still verify as intact, and damage to any of it must be noticed.
    @Test func aManifestRecordedWhileExtractingMatchesEverythingInstalled() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let installer = Installer(root: h.root)
        let fixture = try DocsetFixture.make(version: "1", indexRows: 50)
        let path = h.archive("odd.tgz")
        try fixture.writeArchive(
            to: path,
            after: [
                .file("Fixture.docset/Contents/Info.plist", "replaced by a later entry", permissions: 0o644),
                .file("Fixture.docset/Contents/Resources/Documents/a page%20with spaces.html", "x", permissions: 0o644),
                .file("Fixture.docset/Contents/Resources/Documents/new/deep/tab\tname.html", "y", permissions: 0o755),
                ArchiveWriter.Entry(
                    "Fixture.docset/Contents/Resources/Documents/link.html", .symlink(target: "page0.html")),
                .file("Fixture.docset/meta.json", "{}", permissions: 0o644),
            ])
        var request = InstallRequest(name: h.name, version: "1")
        request.icons = ["icon.png": [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]]
        let installed = try await installer.install(archive: path, as: request)
        #expect(try await installer.verify(names: [h.name]).map(\.status) == [.intact])

        let manifests = "\(h.root)/.docsync/manifests"
        let names = try FileManager.default.contentsOfDirectory(atPath: manifests)
        #expect(names == [URL(fileURLWithPath: installed.path).lastPathComponent], "\(names)")
        let text = try String(contentsOfFile: "\(manifests)/\(names[0])", encoding: .utf8)
        #expect(text.hasPrefix("docsync-manifest 2\n"))
        #expect(text.contains("F 1 2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881 "
            + "Contents/Resources/Documents/a%20page%2520with%20spaces.html\n"), "\(text)")

        // Every kind of late change is still checked: the prepared index, the icon, meta.json, a replaced entry.
        for (file, bytes) in [
            ("Contents/Resources/docSet.dsidx", [UInt8](repeating: 0, count: 8)), ("icon.png", [1]),
            ("Contents/Info.plist", [2]), ("Contents/Resources/Documents/new/deep/tab\tname.html", [3]),
        ] {
            let target = "\(installed.path)/\(file)"
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: target)
            try Data(bytes).write(to: URL(fileURLWithPath: target))
        }
        let status = try await installer.verify(names: [h.name]).first?.status
        guard case .damaged(let problems) = status else {
            Issue.record("damage not noticed: \(String(describing: status))")
            return
        }
        #expect(
            Set(problems.map { $0.components(separatedBy: " (").first ?? $0 }) == [
                "changed Contents/Resources/docSet.dsidx", "changed icon.png", "changed Contents/Info.plist",
                "changed Contents/Resources/Documents/new/deep/tab\tname.html",
            ], "\(problems)")
    }

    /// Manifests recorded before it was written while extracting (format 1: sorted, one line per path) still verify.
    @Test func aFormatOneManifestStillVerifies() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let installed = try await h.installOld()
        let version = URL(fileURLWithPath: installed.path).lastPathComponent
        var lines: [String] = []
        let fm = FileManager.default
        for relative in (fm.enumerator(atPath: installed.path)?.allObjects as? [String] ?? []).sorted() {
            let full = "\(installed.path)/\(relative)"
            let attributes = try fm.attributesOfItem(atPath: full)
            if attributes[.type] as? FileAttributeType == .typeDirectory {
                lines.append("D \(relative)")
            } else {
                let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: full)))
                lines.append("F \(data.count) \(SHA256.hash(data)) \(relative)")
            }
        }
        let text = (["docsync-manifest 1"] + lines).joined(separator: "\n") + "\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: "\(h.root)/.docsync/manifests/\(version)"))
        #expect(try await h.installer.verify(names: [h.name]).map(\.status) == [.intact])
        try fm.removeItem(atPath: "\(installed.path)/Contents/Info.plist")
        let status = try await h.installer.verify(names: [h.name]).map(\.status)
        #expect(status == [.damaged(["missing Contents/Info.plist"])])
    }
}
