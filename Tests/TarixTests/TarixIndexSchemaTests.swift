import DocSyncTarix
import Foundation
import GRDB
import TestSupport
import Testing

/// The index docsync writes: one B-tree (`WITHOUT ROWID`, `path` its key) with no free pages and no scratch left
/// beside it; Zeal's statements and reading algorithm work on it; an index in the older rowid form (what docsync
/// wrote before, and Zeal's test writer writes) still reads and verifies.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct TarixIndexSchemaTests {
    private func store(count: Int = 120) throws
        -> (TarixFixture, source: String, archive: String, index: String, seed: UInt64)
    {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let fixture = try TarixFixture.make(&random, count: count)
        let source = try fixture.archive(format: "gnu")
        let built = try fixture.build(source, label: "schema")
        return (fixture, source, built.archive, built.index, random.seed)
    }

    @Test func indexIsOnePackedBTreeThatZealReads() throws {
        let (fixture, source, archive, index, seed) = try store()
        defer { fixture.dir.remove() }
        #expect(!FileManager.default.fileExists(atPath: index + "-build"), "the scratch database is removed")
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: index, configuration: configuration)
        try queue.read { db in
            let sql = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'tarindex'") ?? ""
            #expect(sql.hasSuffix("WITHOUT ROWID"), "\(sql)")
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'index'") == 0)
            #expect(try Int.fetchOne(db, sql: "PRAGMA freelist_count") == 0)
            #expect(
                try Int.fetchOne(db, sql: "SELECT count(*) FROM tarindex WHERE hash <> ''") == fixture.files.count,
                "seed \(seed)")
            // Zeal's statements (tarixarchive.cpp, database.cpp), verbatim.
            let tables = try String.fetchAll(
                db,
                sql: "SELECT name FROM (SELECT * FROM sqlite_master UNION ALL SELECT * FROM sqlite_temp_master) "
                    + "WHERE type='table'")
            #expect(tables.contains("tarindex"))
            let first = try String.fetchOne(db, sql: "SELECT path FROM tarindex WHERE path LIKE '%.docset/%' LIMIT 1")
            #expect(first?.hasPrefix("Sample.docset/") == true)
            let page = "Sample.docset/\(TarixFixture.documents)/operator*.html"
            let lookup = "SELECT hash FROM tarindex WHERE path = ?"
            let hash = try String.fetchOne(db, sql: lookup, arguments: [page])
            #expect(hash != nil && hash != "")
            #expect(try String.fetchOne(db, sql: lookup, arguments: [page.uppercased()]) == hash, "without case")
            let plan = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + lookup, arguments: [page])
                .map { ($0["detail"] as String?) ?? "" }.joined(separator: "; ")
            #expect(plan.contains("PRIMARY KEY") && !plan.contains("SCAN"), "a key lookup, not a scan: \(plan)")
        }
        try queue.close()
        let extracted = try fixture.extract(source, label: "schema")
        let zeal = try fixture.python(ZealScripts.reader, [archive, index, extracted])
        #expect(zeal.trimmingCharacters(in: .whitespacesAndNewlines) == "OK \(fixture.files.count)", "seed \(seed)")
    }

    @Test func olderRowidIndexStillReadsAndVerifies() throws {
        let (fixture, _, archive, index, seed) = try store(count: 60)
        defer { fixture.dir.remove() }
        let older = fixture.dir.appending("older.db")
        let queue = try DatabaseQueue(path: older)
        try queue.inDatabase { db in
            try db.execute(sql: "CREATE TABLE tarindex(path TEXT PRIMARY KEY COLLATE NOCASE, hash TEXT)")
            try db.execute(sql: "ATTACH DATABASE ? AS new", arguments: [index])
            try db.execute(sql: "INSERT INTO tarindex SELECT path, hash FROM new.tarindex")
            try db.execute(sql: "DETACH DATABASE new")
        }
        try queue.close()
        #expect(try fixture.verify(archive, older).documents == fixture.files.count, "seed \(seed)")
        let reader = try TarixArchive(archivePath: archive, indexPath: older)
        for (path, bytes) in fixture.files {
            #expect(try reader.read(path) == bytes, "\(path), seed \(seed)")
        }
        #expect(try reader.read("\(TarixFixture.documents)/OPERATOR*.HTML") == Array("star".utf8))
    }

    @Test func archiveNotFlushedLeavesNoScratch() throws {
        let (fixture, source, _, _, _) = try store(count: 10)
        defer { fixture.dir.remove() }
        let index = fixture.dir.appending("as-is.db")
        let fd = open(source, O_RDONLY)
        defer { close(fd) }
        do {
            _ = try TarixBuilder.indexAsIs(source: fd, sourceName: source, indexPath: index)
            Issue.record("GNU tar's tgz indexed as if flushed at every record")
        } catch {
            #expect(error.isNotFlushed, "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: index + "-build"))
    }
}
