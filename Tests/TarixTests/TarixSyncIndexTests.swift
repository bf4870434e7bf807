import DocSync
import DocSyncConfigFile
import Foundation
import TestSupport
import Testing

/// A sync with `[install] layout = "tarix"` fetches the publisher's index from `<archive URL>.tarix` (Kapeli's
/// convention: a gzip'd tar holding `tarixIndex.db`, written here by Zeal's test writer) and hands it to the
/// installer, which uses it only after a full check; a corrupted or missing one means docsync builds its own and the
/// sync still succeeds. Served by a `MemoryOrigin` to the in-process engine.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct TarixSyncIndexTests {
    enum Offer: String, CaseIterable, Sendable {
        case valid, corrupted, missing
    }

    @Test(arguments: Offer.allCases, [true, false])
    func aSyncFetchesThePublishersIndexAndChecksIt(offer: Offer, streaming: Bool) async throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let fixture = try TarixInstallTests.fixture(&random, count: 60)
        let seed = "seed \(random.seed)"  // DOCSYNC_TEST_SEED replays the fixture
        defer { fixture.dir.remove() }
        let www = fixture.dir.appending("www")
        try FileManager.default.createDirectory(atPath: www, withIntermediateDirectories: true)
        let plain = try fixture.archive(format: "gnu")
        let flushed = "\(www)/Sample.tgz"
        let packageDir = fixture.dir.appending("package")
        try FileManager.default.createDirectory(atPath: packageDir, withIntermediateDirectories: true)
        let publisherIndex = "\(packageDir)/tarixIndex.db"
        _ = try fixture.python(ZealScripts.writer, [plain, flushed, publisherIndex])
        if offer == .corrupted {
            // One row's length off by a block: the record it names is not that long.
            let changed = try fixture.python(
                """
                import sqlite3, sys
                db = sqlite3.connect(sys.argv[1])
                path, h = db.execute("SELECT path, hash FROM tarindex WHERE path LIKE '%.html' "
                                     "ORDER BY rowid LIMIT 1").fetchone()
                b, o, l = h.split(" ")
                db.execute("UPDATE tarindex SET hash = ? WHERE path = ?", ("%s %s %d" % (b, o, int(l) + 1), path))
                db.commit()
                print("changed")
                """, [publisherIndex])
            #expect(changed.contains("changed"), "\(seed)")
        }
        if offer != .missing {
            try fixture.run("/usr/bin/tar", ["-czf", "\(www)/Sample.tgz.tarix", "-C", packageDir, "tarixIndex.db"])
        }
        let origin = MemoryOrigin(root: www)
        try ServedFile.write(
            "<entry><version>1.0</version><url>\(origin.url("Sample.tgz"))</url></entry>\n", to: "\(www)/Sample.xml")
        let config = try TarixStreamingSyncTests.config(
            fixture, feed: origin.url("Sample.xml"), extra: "streaming = \(streaming)\n")

        let configuration = try DocSyncConfigurationLoader().load(file: config)
        let run = try await SyncRun.of(SyncEngine(configuration: configuration, transport: origin.transport))
        #expect(run.summary?.isSuccess == true && run.summary?.installed == 1, "\(seed): \(run.lines)")
        let index = origin.accessLog().filter { $0.path.hasSuffix("Sample.tgz.tarix") }
        #expect(index.map(\.status).last == (offer == .missing ? 404 : 200), "\(seed): \(origin.accessLog())")

        let docset = fixture.dir.appending("root/Sample.docset")
        let store = "\(docset)/Contents/Resources"
        let meta = try TarixInstallTests.meta(docset)
        #expect(meta["tarix_index"] as? String == (offer == .valid ? "publisher" : "built"), "\(seed)")
        #expect(meta["tarix_mode"] as? String == "indexed", "\(seed)")
        #expect(FileManager.default.contentsEqual(atPath: "\(store)/tarix.tgz", andPath: flushed), "\(seed)")
        if offer == .valid {  // the publisher's rows, rewritten packed (TarixIndexCompaction)
            let same = try fixture.python(
                """
                import sqlite3, sys
                rows = lambda p: sorted(sqlite3.connect(p).execute("SELECT path, hash FROM tarindex").fetchall())
                print(rows(sys.argv[1]) == rows(sys.argv[2]))
                """, ["\(store)/tarixIndex.db", publisherIndex])
            #expect(same.trimmingCharacters(in: .whitespacesAndNewlines) == "True", "\(seed)")
        }
        // Zeal's reader reads every document back byte-identical to GNU tar's extraction, whichever index it got.
        let extracted = try fixture.extract(plain, label: "plain")
        let zeal = try fixture.python(ZealScripts.reader, ["\(store)/tarix.tgz", "\(store)/tarixIndex.db", extracted])
        #expect(zeal.trimmingCharacters(in: .whitespacesAndNewlines) == "OK \(fixture.files.count)", "\(seed)")
        // Nothing of the index is left in staging.
        let staged = (try? FileManager.default.subpathsOfDirectory(atPath: fixture.dir.appending("staging"))) ?? []
        #expect(!staged.contains { $0.hasSuffix(".archive") || $0.contains("tarix") }, "\(seed): \(staged)")
    }
}
