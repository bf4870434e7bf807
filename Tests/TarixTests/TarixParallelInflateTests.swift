import DocSyncSupport
import DocSyncTarix
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A flushed archive is checked and indexed with its inflate spread over worker threads: the compressed bytes are
/// cut into jobs at `00 00 FF FF` markers, each inflated cold, and the walk goes on itself where a job could not be
/// proven (a record larger than a job, an output larger than a job's room, a marker made of data). Whatever the job
/// size and the worker count, the index is the writer's own, every document reads back as Zeal reads it, and a
/// damaged record late in the archive is refused, with its path named unless only the gzip trailer could tell.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct TarixParallelInflateTests {
    /// A flushed archive (re-encoded by `TarixWriter`) of thousands of tiny records and records larger than any job
    /// (random: stored blocks; text: an output larger than a job's room), with the writer's index.
    static func flushed(_ random: inout TestRandom) throws -> (
        fixture: TarixFixture, archive: String, index: String, source: String
    ) {
        let fixture = try TarixParallelDeflateTests.fixture(&random, jobBytes: 64 << 10)
        let source = try fixture.archive(format: "pax")
        let store = try TarixParallelDeflateTests.reencode(fixture, source, jobBytes: 64 << 10, label: "w", &random)
        return (fixture, store.archive, store.index, source)
    }

    static func limits(workers: Int, jobBytes: Int) -> TarixLimits {
        var limits = TarixLimits()
        limits.inflateWorkers = workers
        limits.inflateJobBytes = jobBytes
        return limits
    }

    /// Every row of an index, `path hash` a line, sorted.
    static func rows(_ fixture: TarixFixture, _ index: String) throws -> String {
        try fixture.python(
            "import sqlite3, sys\n"
                + "rows = sqlite3.connect(sys.argv[1]).execute('SELECT path, hash FROM tarindex').fetchall()\n"
                + "print('\\n'.join(sorted(f'{p} {h}' for p, h in rows)))\n",
            [index])
    }

    @Test(arguments: [(2, 1 << 10), (2, 16 << 10), (1, 64 << 10), (0, 16 << 10), (2, 256 << 10)])
    func indexesAndChecksAsTheWriterWroteIt(workers: Int, jobBytes: Int) throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let seed = "seed \(random.seed), \(workers) workers, job \(jobBytes) B"
        let (fixture, archive, writerIndex, source) = try Self.flushed(&random)
        defer { fixture.dir.remove() }
        let limits = Self.limits(workers: workers, jobBytes: jobBytes)

        // Indexed as it is: exactly the rows the writer recorded (each offset where its full flush ends).
        let index = fixture.dir.appending("indexed.db")
        let fd = open(archive, O_RDONLY)
        defer { close(fd) }
        let summary = try TarixBuilder.indexAsIs(source: fd, sourceName: archive, indexPath: index, limits: limits)
        #expect(summary.mode == .indexedAsIs, "\(seed)")
        #expect(summary.documents == fixture.files.count, "\(seed)")
        #expect(summary.archiveBytes == fixture.fileSize(archive), "\(seed)")
        #expect(try Self.rows(fixture, index) == (try Self.rows(fixture, writerIndex)), "\(seed)")

        // Checked as a publisher's index, and read back by Zeal's algorithm.
        let verified = try TarixVerifier.verify(
            archive: fd, archiveName: archive, indexPath: writerIndex, limits: limits)
        #expect(verified.documents == fixture.files.count, "\(seed)")
        let extracted = try fixture.extract(source, label: "x")
        let zeal = try fixture.python(ZealScripts.reader, [archive, index, extracted])
        #expect(zeal == "OK \(fixture.files.count)\n", "\(seed)")

        // A plain (not flushed) archive is found out, whatever the jobs.
        let plain = open(source, O_RDONLY)
        defer { close(plain) }
        #expect(performing: {
            _ = try TarixBuilder.indexAsIs(
                source: plain, sourceName: source, indexPath: fixture.dir.appending("plain.db"), limits: limits)
        }, throws: { ($0 as? TarixError)?.isNotFlushed == true })
    }

    @Test(arguments: [(2, 4 << 10), (0, 4 << 10), (2, 256 << 10)])
    func aDamagedRecordInTheSecondHalfIsRefusedByName(workers: Int, jobBytes: Int) throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let seed = "seed \(random.seed), \(workers) workers, job \(jobBytes) B"
        let (fixture, archive, index, _) = try Self.flushed(&random)
        defer { fixture.dir.remove() }
        // The documents by offset; a text page of the second half whose compressed record spans a few KiB.
        let listing = try fixture.python(
            "import sqlite3, sys\n"
                + "rows = sqlite3.connect(sys.argv[1]).execute(\"SELECT path, hash FROM tarindex WHERE hash <> ''\")\n"
                + "rows = sorted((int(h.split()[1]), p) for p, h in rows)\n"
                + "for (o, p), (n, _) in zip(rows, rows[1:]): print(o, n - o, p)\n",
            [index])
        let records = listing.split(separator: "\n").map { $0.split(separator: " ", maxSplits: 2) }
        let size = fixture.fileSize(archive)
        let late = records.filter { Int64($0[0])! > size / 2 && Int($0[1])! > 1200 && $0[2].hasSuffix(".html") }
        let chosen = try #require(late.randomElement(using: &random), "\(seed)")
        let (offset, length, path) = (Int(chosen[0])!, Int(chosen[1])!, String(chosen[2]))
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: archive)))
        let at = offset + max(length / 2, 600)
        for i in at..<min(at + 32, offset + length - 8) { bytes[i] ^= UInt8.random(in: 1...255, using: &random) }
        let damaged = fixture.dir.appending("damaged.tgz")
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))
        let fd = open(damaged, O_RDONLY)
        defer { close(fd) }
        let limits = Self.limits(workers: workers, jobBytes: jobBytes)
        do {
            _ = try TarixVerifier.verify(archive: fd, archiveName: damaged, indexPath: index, limits: limits)
            Issue.record("a damaged record was accepted: \(path) at \(at), \(seed)")
        } catch {
            // Damage that still decodes to as many bytes, ending at the same flush point, leaves every record's
            // structure intact: only the gzip trailer's CRC-32 finds it, and it cannot say which record was hit.
            let onlyTheTrailer = error.description.contains("gzip trailer does not match the data")
            #expect(onlyTheTrailer || error.description.contains(path), "\(error), damaged \(path) at \(at), \(seed)")
        }
    }

    /// A publisher's index may name a record's flush point 5 bytes early (the empty stored block's first byte, where
    /// a sequential inflater stops when the block before ended byte-aligned; docsync's sequential walk named those):
    /// accepted, and Zeal reads the records from there; one byte off is refused.
    @Test func aFlushPointNamedAtTheEmptyStoredBlockIsAccepted() throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let seed = "seed \(random.seed)"
        let (fixture, archive, index, source) = try Self.flushed(&random)
        defer { fixture.dir.remove() }
        let rewrite = """
            import sqlite3, sys
            data = open(sys.argv[1], 'rb').read()
            db = sqlite3.connect(sys.argv[2])
            moved = 0
            for path, h in db.execute("SELECT path, hash FROM tarindex WHERE hash <> ''").fetchall():
                block, offset, length = map(int, h.split())
                shift = int(sys.argv[3])
                if data[offset - 4:offset] == bytes([0, 0, 255, 255]) and data[offset - 5] & 7 == 0:
                    moved_hash = f'{block} {offset - shift} {length}'
                    db.execute('UPDATE tarindex SET hash = ? WHERE path = ?', (moved_hash, path))
                    moved += 1
                    if shift != 5: break
            db.commit()
            print(moved)
            """
        let early = fixture.dir.appending("early.db")
        let wrong = fixture.dir.appending("wrong.db")
        try FileManager.default.copyItem(atPath: index, toPath: early)
        try FileManager.default.copyItem(atPath: index, toPath: wrong)
        let moved = try fixture.python(rewrite, [archive, early, "5"])
        #expect((Int(moved.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) > 10, "\(moved), \(seed)")
        let fd = open(archive, O_RDONLY)
        defer { close(fd) }
        let verified = try TarixVerifier.verify(archive: fd, archiveName: archive, indexPath: early)
        #expect(verified.documents == fixture.files.count, "\(seed)")
        let extracted = try fixture.extract(source, label: "e")
        #expect(try fixture.python(ZealScripts.reader, [archive, early, extracted]) == "OK \(fixture.files.count)\n")

        _ = try fixture.python(rewrite, [archive, wrong, "1"])
        #expect(performing: {
            _ = try TarixVerifier.verify(archive: fd, archiveName: archive, indexPath: wrong)
        }, throws: { ($0 as? TarixError)?.kind == "bad_index" })
    }
}
