import DocSync
import DocSyncInstall
import Foundation
import TestSupport
import Testing

struct FormatRow: Sendable, CustomTestStringConvertible {
    let name: String
    let format: ArchiveWriter.Format
    let filter: ArchiveWriter.Filter
    var testDescription: String { name }
}

/// Every supported format round-trips a small docset: contents and (normalised) modes compared file by file.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct FormatRoundTripTests {
    static let rows = [
        FormatRow(name: "tgz", format: .pax, filter: .gzip),
        FormatRow(name: "tar.bz2", format: .pax, filter: .bzip2),
        FormatRow(name: "tar.xz", format: .pax, filter: .xz),
        FormatRow(name: "tar.zst", format: .gnutar, filter: .zstd),
        FormatRow(name: "plain tar", format: .ustar, filter: .none),
        FormatRow(name: "zip", format: .zip, filter: .none),
        FormatRow(name: "xar", format: .xar, filter: .none),
    ]

    /// A fixture with a setuid executable among its files (installed as 0755).
    private func fixture(version: String = "1.0", documentsFolder: String = "Documents", unicode: Bool = true) throws
        -> DocsetFixture
    {
        var fixture = try DocsetFixture.make(version: version, documentsFolder: documentsFolder)
        if unicode {
            // libarchive's xar writer mangles non-ASCII names in the C locale: xar is read from bsdtar for those.
            fixture.files["Contents/Resources/\(documentsFolder)/Résumé – 日本語.html"] = (Array("<p>é</p>".utf8), 0o644)
        }
        fixture.files["Contents/Resources/\(documentsFolder)/tool.sh"] = (Array("#!/bin/sh\n".utf8), 0o4755)
        return fixture
    }

    private func install(_ archive: String, _ h: InstallHarness) async throws -> InstallRecord {
        try await h.installer.install(archive: archive, as: InstallRequest(name: h.name, version: "1.0", revision: "2"))
    }

    @Test(arguments: rows)
    func roundTrip(_ row: FormatRow) async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let fixture = try fixture(unicode: row.format != .xar)
        let path = h.archive("docset.\(row.name)")
        try fixture.writeArchive(to: path, format: row.format, filter: row.filter)
        let installed = try await install(path, h)
        #expect(try TreeSnapshot.of(installed.path) == fixture.expectedManifest)
        #expect(URL(fileURLWithPath: h.docsetPath).resolvingSymlinksInPath().path == installed.path)
        #expect(SQLiteIndex.count(installed.indexPath) == 3)
        #expect(installed.revision == "2")
    }

    @Test func tgzPackedByGNUTar() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let fixture = try fixture()
        try fixture.writeTree(to: h.dir.appending("tree/Fixture.docset"))
        let path = h.archive("gnu.tgz")
        let tar = try Tool.run("/bin/tar", ["-czf", path, "-C", h.dir.appending("tree"), "Fixture.docset"])
        #expect(tar.status == 0)
        let installed = try await install(path, h)
        #expect(try TreeSnapshot.of(installed.path) == fixture.expectedManifest)
    }

    @Test func tgzStartingWithAppleDoubleAboveTheDocsetFolder() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let fixture = try fixture()
        let appleDouble = [UInt8]([0x00, 0x05, 0x16, 0x07, 0x00, 0x02, 0x00, 0x00]) + Array(repeating: 0, count: 74)
        let path = h.archive("appledouble.tgz")
        try fixture.writeArchive(
            to: path, prefix: "./Fixture.docset/",
            before: [ArchiveWriter.Entry("./._Fixture.docset", .file(data: appleDouble))],
            after: [ArchiveWriter.Entry("./Fixture.docset/Contents/._Info.plist", .file(data: appleDouble))])
        let installed = try await install(path, h)
        #expect(try TreeSnapshot.of(installed.path) == fixture.expectedManifest)
    }

    @Test func appleStyleXARWithDocumentationWALAndExtendedAttributes() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        var fixture = try fixture(documentsFolder: "Documentation", unicode: false)
        fixture.files["Contents/Resources/docSet.dsidx-wal"] = ([], 0o644)
        fixture.files["Contents/Resources/docSet.dsidx-shm"] = (Array(repeating: 0, count: 32768), 0o644)
        let xattrs = [
            (name: "com.apple.quarantine", value: Array("0081;5e3a2b1c;Safari;".utf8)),
            (name: "user.docsync.test", value: Array("restored?".utf8)),
        ]
        let entries = fixture.entries(prefix: "Fixture.docset/").map { entry -> ArchiveWriter.Entry in
            var entry = entry
            entry.xattrs = xattrs
            return entry
        }
        let path = h.archive("apple.xar")
        try ArchiveFixture.write(to: path, format: .xar, filter: .none, entries)
        let installed = try await install(path, h)
        // Readers' preparation (now in every installer) removes the index's stale `-wal` / `-shm` sidecars (the index
        // is not in WAL mode) and links Apple's `Documentation` as `Documents`: the rest arrives exactly as archived.
        var prepared = fixture
        prepared.files["Contents/Resources/docSet.dsidx-wal"] = nil
        prepared.files["Contents/Resources/docSet.dsidx-shm"] = nil
        var expected = prepared.expectedManifest
        expected["Contents/Resources/Documents"] = "link Documentation"
        #expect(try TreeSnapshot.of(installed.path) == expected)
        #expect(SQLiteIndex.count(installed.indexPath) == 3)
        let listed = try Tool.run(
            "/usr/bin/python3",
            ["-c", "import os,sys; print(sum(len(os.listxattr(p)) for p in sys.argv[1:]))"]
                + prepared.files.keys.map { "\(installed.path)/\($0)" })
        #expect(listed.standardOutput == "0\n", "extended attributes were restored: \(listed.standardError)")
    }

    @Test func bareContentsLayout() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let fixture = try fixture()
        let path = h.archive("bare.tgz")
        try fixture.writeArchive(to: path, prefix: "")
        let installed = try await install(path, h)
        #expect(try TreeSnapshot.of(installed.path) == fixture.expectedManifest)
    }

    @Test func nestedDocsetFolderIsFlattened() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let fixture = try fixture()
        let path = h.archive("nested.tgz")
        try fixture.writeArchive(
            to: path, prefix: "Outer.docset/Fixture.docset/", before: [.directory("Outer.docset")])
        let installed = try await install(path, h)
        #expect(try TreeSnapshot.of(installed.path) == fixture.expectedManifest)
    }

    @Test func duplicateFileLastWins() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        var fixture = try fixture()
        let path = h.archive("duplicate.tgz")
        try fixture.writeArchive(
            to: path, after: [.file("Fixture.docset/Contents/Info.plist", "second", permissions: 0o755)])
        fixture.files["Contents/Info.plist"] = (Array("second".utf8), 0o755)
        let installed = try await install(path, h)
        #expect(try TreeSnapshot.of(installed.path) == fixture.expectedManifest)
    }

    @Test func symlinkInsideTheDocsetIsKept() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let fixture = try fixture()
        let path = h.archive("symlink.tgz")
        try fixture.writeArchive(
            to: path,
            after: [
                ArchiveWriter.Entry(
                    "Fixture.docset/Contents/Resources/Documents/index.html", .symlink(target: "page0.html"))
            ])
        let installed = try await install(path, h)
        var expected = fixture.expectedManifest
        expected["Contents/Resources/Documents/index.html"] = "link page0.html"
        #expect(try TreeSnapshot.of(installed.path) == expected)
    }

    @Test func xarWithNonASCIINamesPackedByBsdtar() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let fixture = try fixture()
        try fixture.writeTree(to: h.dir.appending("tree/Fixture.docset"))
        let path = h.archive("bsdtar.xar")
        let bsdtar = try Tool.run(
            "/usr/bin/env",
            [
                "LC_ALL=C.UTF-8", "bsdtar", "--format", "xar", "-cf", path, "-C", h.dir.appending("tree"),
                "Fixture.docset",
            ])
        #expect(bsdtar.status == 0, "\(bsdtar.standardError)")
        let installed = try await install(path, h)
        #expect(try TreeSnapshot.of(installed.path) == fixture.expectedManifest)
    }
}
