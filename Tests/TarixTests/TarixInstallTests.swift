import DocSync
import DocSyncInstall
import DocSyncSupport
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The tarix layout through the installer: `Documents/` kept as `tarix.tgz` + `tarixIndex.db` (built, re-encoded
/// or indexed as it is), everything else extracted, checked with Zeal's own reading algorithm and load rules, read
/// back through the library's document access.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct TarixInstallTests {
    /// A generated docset with a real `docSet.dsidx` (the installer's Zeal preparation opens it).
    static func fixture(_ random: inout TestRandom, count: Int = 200) throws -> TarixFixture {
        var fixture = try TarixFixture.make(&random, count: count)
        let index = try SQLiteIndex.make(rows: 3)
        fixture.files["Contents/Resources/docSet.dsidx"] = index
        try Data(index).write(to: URL(fileURLWithPath: fixture.root + "/Contents/Resources/docSet.dsidx"))
        return fixture
    }

    static func installer(_ root: String, grace: Duration = .seconds(600)) -> Installer {
        Installer(root: root, configuration: InstallConfiguration(gracePeriod: grace))
    }

    static func tarixRequest(_ name: String, version: String? = nil) -> InstallRequest {
        var request = InstallRequest(name: name, version: version)
        request.layout = .tarix
        return request
    }

    /// Regular files below `path` (links not followed).
    static func files(below path: String) -> [String] {
        var result: [String] = []
        let walker = FileManager.default.enumerator(atPath: path)
        while let relative = walker?.nextObject() as? String {
            var st = stat()
            if lstat("\(path)/\(relative)", &st) == 0, st.st_mode & S_IFMT == S_IFREG { result.append(relative) }
        }
        return result.sorted()
    }

    static func meta(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: "\(path)/meta.json"))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return ((object?["extra"] as? [String: Any])?["docsync"] as? [String: Any]) ?? [:]
    }

    @Test func aReencodedTarixInstallHoldsAHandfulOfFilesAndZealReadsEveryDocument() async throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let seed = "seed \(random.seed)"
        let fixture = try Self.fixture(&random)
        defer { fixture.dir.remove() }
        let source = try fixture.archive(format: "gnu")
        let root = fixture.dir.appending("root")
        let record = try await Self.installer(root).install(archive: source, as: Self.tarixRequest("Sample"))
        #expect(record.layout == .tarix)

        // Zeal's load rules (readers.md) for a tarix docset: Info.plist and the index extracted, the store's two
        // files in Contents/Resources, no Documents/ folder, everything read-only; a handful of files in all.
        let files = Self.files(below: record.path)
        #expect(
            files == [
                "Contents/Info.plist", "Contents/Resources/docSet.dsidx", "Contents/Resources/tarix.tgz",
                "Contents/Resources/tarixIndex.db", "meta.json",
            ], "\(seed)")
        #expect(!FileManager.default.fileExists(atPath: "\(record.path)/Contents/Resources/Documents"))
        for file in files {
            var st = stat()
            #expect(lstat("\(record.path)/\(file)", &st) == 0 && st.st_mode & 0o222 == 0, "\(file) is read-only")
        }
        #expect(SQLiteIndex.count("\(record.path)/Contents/Resources/docSet.dsidx") == 3)
        #expect(record.fileCount == 4 && files.count <= 20)

        // Zeal's reader (Python, from its source) reads every document back byte-identical to GNU tar's extraction.
        let extracted = try fixture.extract(source, label: "gnu")
        let store = "\(record.path)/Contents/Resources"
        let zeal = try fixture.python(ZealScripts.reader, ["\(store)/tarix.tgz", "\(store)/tarixIndex.db", extracted])
        #expect(zeal.trimmingCharacters(in: .whitespacesAndNewlines) == "OK \(fixture.files.count)", "\(seed)")

        // meta.json's record: the layout, how the store was made and both digests.
        let meta = try Self.meta(record.path)
        #expect(meta["layout"] as? String == "tarix")
        #expect(meta["tarix_mode"] as? String == "reencoded")
        let tarixDigest = try SafeDirectory.open(store).digest(of: "tarix.tgz").sha256
        #expect(meta["tarix_sha256"] as? String == tarixDigest)
        let sourceDigest = try SafeDirectory.open(fixture.dir.path).digest(of: (source as NSString).lastPathComponent)
        #expect(meta["archive_sha256"] as? String == sourceDigest.sha256)
        #expect(tarixDigest != sourceDigest.sha256)

        // The library's document access reads from the store: every document, a path without case as Zeal looks
        // it up, and the same refusals as the extracted layout.
        let docset = InstalledDocset(record)
        #expect(docset.layout == .tarix)
        for (path, bytes) in fixture.files where path.hasPrefix(TarixFixture.documents + "/") {
            let page = String(path.dropFirst(TarixFixture.documents.count + 1))
            #expect(try await docset.contents(of: page) == bytes, "\(page), \(seed)")
        }
        #expect(try await docset.contents(of: "OPERATOR*.HTML") == Array("star".utf8))
        await #expect(throws: DocumentError.notFound) { try await docset.contents(of: "no/such/page.html") }
        await #expect(throws: DocumentError.invalidPath) { try await docset.contents(of: "../Info.plist") }
        await #expect(throws: DocumentError.notRegularFile) { try await docset.contents(of: "section-1") }
        await #expect(throws: DocumentError.tooLarge) {
            try await docset.contents(of: "Résumé – 日本語.html", maximumBytes: 3)
        }
    }

    /// A publisher's archive already flushed at every record (Kapeli's, Zeal's test writer) is kept byte for byte.
    @Test func aFlushedArchiveIsIndexedAsItIsAndKeptByteForByte() async throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let fixture = try Self.fixture(&random, count: 60)
        defer { fixture.dir.remove() }
        let plain = try fixture.archive(format: "gnu")
        let flushed = fixture.dir.appending("flushed.tgz")
        _ = try fixture.python(ZealScripts.writer, [plain, flushed, fixture.dir.appending("publisher-index.db")])
        let root = fixture.dir.appending("root")
        let record = try await Self.installer(root).install(archive: flushed, as: Self.tarixRequest("Sample"))
        let store = "\(record.path)/Contents/Resources"
        #expect(FileManager.default.contentsEqual(atPath: "\(store)/tarix.tgz", andPath: flushed))
        let meta = try Self.meta(record.path)
        #expect(meta["tarix_mode"] as? String == "indexed")
        #expect(meta["tarix_sha256"] as? String == meta["archive_sha256"] as? String)
        let extracted = try fixture.extract(plain, label: "plain")
        let zeal = try fixture.python(ZealScripts.reader, ["\(store)/tarix.tgz", "\(store)/tarixIndex.db", extracted])
        #expect(zeal.trimmingCharacters(in: .whitespacesAndNewlines) == "OK \(fixture.files.count)")
    }

    /// A store archive kept as it is is recorded in the manifest with the digest the install computed from the
    /// source's bytes (not hashed a second time): `verify` finds it intact, and one changed byte — the gzip trailer's
    /// last, which no index row covers — damaged.
    @Test func aFlushedArchiveKeptAsItIsIsInTheManifestWithItsDigest() async throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let seed = "seed \(random.seed)"
        let fixture = try Self.fixture(&random, count: 40)
        defer { fixture.dir.remove() }
        let plain = try fixture.archive(format: "gnu")
        let flushed = fixture.dir.appending("flushed.tgz")
        _ = try fixture.python(ZealScripts.writer, [plain, flushed, fixture.dir.appending("publisher-index.db")])
        let root = fixture.dir.appending("root")
        let installer = Self.installer(root)
        let record = try await installer.install(archive: flushed, as: Self.tarixRequest("Sample"))
        let store = "\(record.path)/Contents/Resources"
        let meta = try Self.meta(record.path)
        #expect(meta["tarix_mode"] as? String == "indexed", "\(seed)")
        let stored = try SafeDirectory.open(store).digest(of: "tarix.tgz")
        let source = try SafeDirectory.open(fixture.dir.path).digest(of: "flushed.tgz")
        #expect(stored.sha256 == source.sha256 && meta["tarix_sha256"] as? String == stored.sha256, "\(seed)")
        #expect(try await installer.verify(names: ["Sample"]).map(\.status) == [.intact], "\(seed)")

        let fd = open("\(store)/tarix.tgz", O_WRONLY)
        #expect(fd >= 0)
        var byte: UInt8 = 0xFF
        if let last = try? [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(store)/tarix.tgz"))).last {
            byte = ~last
        }
        #expect(pwrite(fd, &byte, 1, off_t(stored.size - 1)) == 1)
        close(fd)
        let status = try await installer.verify(names: ["Sample"]).first?.status
        guard case .damaged(let reasons) = status else {
            Issue.record("not damaged: \(String(describing: status)), \(seed)")
            return
        }
        #expect(reasons.contains("changed Contents/Resources/tarix.tgz (content)"), "\(reasons), \(seed)")
    }

    /// Extraction's rules hold for the documents the tarix layout does not extract: a link in `Documents/` (a
    /// tarix store holds none) fails the install and leaves the installed version as it was.
    @Test func aLinkInTheDocumentsFailsATarixInstallAndKeepsTheOldVersion() async throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let fixture = try Self.fixture(&random, count: 20)
        defer { fixture.dir.remove() }
        let good = try fixture.archive(format: "gnu")
        let root = fixture.dir.appending("root")
        let installer = Self.installer(root)
        let old = try await installer.install(archive: good, as: Self.tarixRequest("Sample"))
        try FileManager.default.createSymbolicLink(
            atPath: fixture.root + "/\(TarixFixture.documents)/link.html", withDestinationPath: "empty.html")
        let bad = try fixture.archive(format: "pax")
        await #expect(throws: InstallError.self) {
            try await installer.install(archive: bad, as: Self.tarixRequest("Sample"))
        }
        let now = try #require(try installer.installedDocsets().first)
        #expect(now.path == old.path)
    }

    /// The extracted layout is unchanged by the option: `Documents/` extracted, no store.
    @Test func theExtractedLayoutHasNoStore() async throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let fixture = try Self.fixture(&random, count: 20)
        defer { fixture.dir.remove() }
        let source = try fixture.archive(format: "gnu")
        let record = try await Self.installer(fixture.dir.appending("root")).install(
            archive: source, as: InstallRequest(name: "Sample"))
        #expect(record.layout == .extracted)
        #expect(!FileManager.default.fileExists(atPath: "\(record.path)/Contents/Resources/tarix.tgz"))
        let docset = InstalledDocset(record)
        #expect(try await docset.contents(of: "operator*.html") == Array("star".utf8))
    }
}

/// A publisher's index (`<url>.tarix`, Zeal's test writer here) is used only after a full check against the archive;
/// one wrong row and docsync builds its own.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct TarixPublisherIndexTests {
    @Test(arguments: [false, true])
    func aPublisherIndexIsCheckedInFullBeforeItIsUsed(corrupt: Bool) async throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let fixture = try TarixInstallTests.fixture(&random, count: 60)
        defer { fixture.dir.remove() }
        let plain = try fixture.archive(format: "gnu")
        let flushed = fixture.dir.appending("flushed.tgz")
        let publisherIndex = fixture.dir.appending("publisher-index.db")
        _ = try fixture.python(ZealScripts.writer, [plain, flushed, publisherIndex])
        if corrupt {
            // One row's offset moved off its flush point.
            let moved = try fixture.python(
                """
                import sqlite3, sys
                db = sqlite3.connect(sys.argv[1])
                path, h = db.execute("SELECT path, hash FROM tarindex WHERE path LIKE '%.html' "
                                     "ORDER BY rowid DESC LIMIT 1").fetchone()
                b, o, l = h.split(" ")
                db.execute("UPDATE tarindex SET hash = ? WHERE path = ?", ("%s %d %s" % (b, int(o) + 7, l), path))
                db.commit()
                print("moved")
                """, [publisherIndex])
            #expect(moved.contains("moved"))
        }
        var request = TarixInstallTests.tarixRequest("Sample")
        request.tarixIndex = publisherIndex
        let record = try await TarixInstallTests.installer(fixture.dir.appending("root")).install(
            archive: flushed, as: request)
        let store = "\(record.path)/Contents/Resources"
        let meta = try TarixInstallTests.meta(record.path)
        #expect(meta["tarix_index"] as? String == (corrupt ? "built" : "publisher"))
        #expect(meta["tarix_mode"] as? String == "indexed")
        #expect(FileManager.default.contentsEqual(atPath: "\(store)/tarix.tgz", andPath: flushed))
        // The publisher's rows, rewritten packed (one B-tree keyed by path); a refused index's rows are docsync's.
        let compared = try fixture.python(
            """
            import sqlite3, sys
            rows = lambda p: sorted(sqlite3.connect(p).execute("SELECT path, hash FROM tarindex").fetchall())
            schema = sqlite3.connect(sys.argv[1]).execute("SELECT sql FROM sqlite_master WHERE name = 'tarindex'")
            print(rows(sys.argv[1]) == rows(sys.argv[2]), schema.fetchone()[0].endswith("WITHOUT ROWID"))
            """, ["\(store)/tarixIndex.db", publisherIndex])
        #expect(compared.trimmingCharacters(in: .whitespacesAndNewlines) == (corrupt ? "False True" : "True True"))
        #expect(!FileManager.default.fileExists(atPath: "\(store)/tarixIndex.db-compact"))
        let extracted = try fixture.extract(plain, label: "plain")
        let zeal = try fixture.python(ZealScripts.reader, ["\(store)/tarix.tgz", "\(store)/tarixIndex.db", extracted])
        #expect(zeal.trimmingCharacters(in: .whitespacesAndNewlines) == "OK \(fixture.files.count)")
    }
}
