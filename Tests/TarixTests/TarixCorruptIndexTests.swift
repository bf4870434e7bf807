import DocSyncTarix
import Foundation
import GRDB
import TestSupport
import Testing

/// A publisher's index is checked record by record: one bad row refuses it, and the error names the row.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct TarixCorruptIndexTests {
    struct Store {
        let fixture: TarixFixture
        let archive: String
        let index: String
        let seed: UInt64
    }

    private func store() throws -> Store {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let fixture = try TarixFixture.make(&random, count: 60)
        let source = try fixture.archive(format: "gnu")
        let built = try fixture.build(source, label: "good")
        _ = try fixture.verify(built.archive, built.index)
        return Store(fixture: fixture, archive: built.archive, index: built.index, seed: random.seed)
    }

    /// A copy of the good index changed by `edit`; returns its path.
    private func corrupted(_ store: Store, _ label: String, _ edit: (Database) throws -> Void) throws -> String {
        let path = store.fixture.dir.appending("bad-\(label).db")
        try FileManager.default.copyItem(atPath: store.index, toPath: path)
        let queue = try DatabaseQueue(path: path)
        try queue.write(edit)
        try queue.close()
        return path
    }

    /// A multi-block document's row.
    private func bigDocument(_ db: Database) throws -> (path: String, block: Int64, offset: Int64, length: Int64) {
        let row = try Row.fetchOne(
            db,
            sql: "SELECT path, hash FROM tarindex WHERE hash <> '' "
                + "AND CAST(substr(hash, length(hash) - 1) AS INTEGER) > 3 AND path LIKE '%page-%' "
                + "ORDER BY path LIMIT 1"
        )!
        let fields = (row[1] as String).split(separator: " ").map { Int64($0)! }
        return (row[0], fields[0], fields[1], fields[2])
    }

    private func expectRefused(_ store: Store, _ index: String, naming subject: String, kind: String = "bad_index")
        throws
    {
        do {
            _ = try store.fixture.verify(store.archive, index)
            Issue.record("index accepted; expected a refusal naming \(subject) (seed \(store.seed))")
        } catch let error as TarixError {
            #expect(error.kind == kind, "\(error) (seed \(store.seed))")
            // Paths compare without case: the index looks them up that way, and may report either spelling.
            #expect(
                error.subject.lowercased().contains(subject.lowercased()),
                "\(error) should name \(subject) (seed \(store.seed))")
        }
    }

    private func setHash(_ db: Database, _ path: String, _ hash: String) throws {
        try db.execute(sql: "UPDATE tarindex SET hash = ? WHERE path = ?", arguments: [hash, path])
    }

    @Test func offsetPastTheEnd() throws {
        let store = try store()
        defer { store.fixture.dir.remove() }
        var victim = ""
        let size = store.fixture.fileSize(store.archive)
        let bad = try corrupted(store, "past-end") { db in
            let doc = try bigDocument(db)
            victim = doc.path
            try setHash(db, doc.path, "\(doc.block) \(size + 10) \(doc.length)")
        }
        try expectRefused(store, bad, naming: victim)
    }

    @Test(arguments: [-1, 1])
    func wrongLength(delta: Int64) throws {
        let store = try store()
        defer { store.fixture.dir.remove() }
        var victim = ""
        let bad = try corrupted(store, "length\(delta)") { db in
            let doc = try bigDocument(db)
            victim = doc.path
            try setHash(db, doc.path, "\(doc.block) \(doc.offset) \(doc.length + delta)")
        }
        try expectRefused(store, bad, naming: victim)
    }

    @Test func offsetThatIsNotAFlushPoint() throws {
        let store = try store()
        defer { store.fixture.dir.remove() }
        var victim = ""
        let bad = try corrupted(store, "offset") { db in
            let doc = try bigDocument(db)
            victim = doc.path
            try setHash(db, doc.path, "\(doc.block) \(doc.offset + 1) \(doc.length)")
        }
        try expectRefused(store, bad, naming: victim)
    }

    @Test func blockInsideARecord() throws {
        let store = try store()
        defer { store.fixture.dir.remove() }
        var victim = ""
        let bad = try corrupted(store, "block") { db in
            let doc = try bigDocument(db)
            victim = doc.path
            try setHash(db, doc.path, "\(doc.block + 1) \(doc.offset) \(doc.length - 1)")
        }
        try expectRefused(store, bad, naming: victim)
    }

    @Test func pathNotInTheArchive() throws {
        let store = try store()
        defer { store.fixture.dir.remove() }
        let missing = "Sample.docset/Contents/Resources/Documents/missing.html"
        let bad = try corrupted(store, "renamed") { db in
            let doc = try bigDocument(db)
            try db.execute(sql: "UPDATE tarindex SET path = ? WHERE path = ?", arguments: [missing, doc.path])
        }
        try expectRefused(store, bad, naming: missing)
    }

    @Test func traversalPath() throws {
        let store = try store()
        defer { store.fixture.dir.remove() }
        let traversal = "Sample.docset/../../etc/passwd"
        let bad = try corrupted(store, "traversal") { db in
            let doc = try bigDocument(db)
            try db.execute(sql: "UPDATE tarindex SET path = ? WHERE path = ?", arguments: [traversal, doc.path])
        }
        try expectRefused(store, bad, naming: traversal)
    }

    @Test(arguments: ["exact", "case"])
    func duplicatePath(kind: String) throws {
        let store = try store()
        defer { store.fixture.dir.remove() }
        var victim = ""
        // A table without Zeal's primary key can hold a path twice; the lookup would pick either.
        let bad = try corrupted(store, "duplicate-\(kind)") { db in
            let doc = try bigDocument(db)
            victim = doc.path
            try db.execute(sql: "ALTER TABLE tarindex RENAME TO old")
            try db.execute(sql: "CREATE TABLE tarindex(path TEXT, hash TEXT)")
            try db.execute(sql: "INSERT INTO tarindex SELECT path, hash FROM old")
            try db.execute(sql: "DROP TABLE old")
            let copy = kind == "exact" ? doc.path : doc.path.uppercased()
            try db.execute(
                sql: "INSERT INTO tarindex VALUES (?, ?)",
                arguments: [copy, "\(doc.block) \(doc.offset) \(doc.length)"])
        }
        try expectRefused(store, bad, naming: victim)
    }

    @Test func missingRow() throws {
        let store = try store()
        defer { store.fixture.dir.remove() }
        var victim = ""
        let bad = try corrupted(store, "missing") { db in
            let doc = try bigDocument(db)
            victim = doc.path
            try db.execute(sql: "DELETE FROM tarindex WHERE path = ?", arguments: [doc.path])
        }
        try expectRefused(store, bad, naming: victim)
    }

    @Test(arguments: ["garbage", "0 5", "x y z", "0 -1 1", "0 0 0", "0 0 99999999", "1  2 3"])
    func malformedHash(hash: String) throws {
        let store = try store()
        defer { store.fixture.dir.remove() }
        var victim = ""
        let bad = try corrupted(store, "hash-\(abs(hash.hashValue))") { db in
            let doc = try bigDocument(db)
            victim = doc.path
            try setHash(db, doc.path, hash)
        }
        try expectRefused(store, bad, naming: victim)
    }

    @Test func directoryRowNamingNothing() throws {
        let store = try store()
        defer { store.fixture.dir.remove() }
        let ghost = "Sample.docset/Contents/Resources/Documents/ghost/"
        let bad = try corrupted(store, "ghost") { db in
            try db.execute(sql: "INSERT INTO tarindex VALUES (?, '')", arguments: [ghost])
        }
        try expectRefused(store, bad, naming: ghost)
    }

    @Test func notATarixIndex() throws {
        let store = try store()
        defer { store.fixture.dir.remove() }
        let other = store.fixture.dir.appending("other.db")
        let queue = try DatabaseQueue(path: other)
        try queue.write { db in try db.execute(sql: "CREATE TABLE searchIndex(name TEXT)") }
        try queue.close()
        try expectRefused(store, other, naming: other)
        let text = store.fixture.dir.write("text.db", "not sqlite")
        try expectRefused(store, text, naming: text)
    }

    @Test func truncatedOrDamagedArchive() throws {
        let store = try store()
        defer { store.fixture.dir.remove() }
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: store.archive)))
        let truncated = store.fixture.dir.write("truncated.tgz", bytes: Array(bytes.prefix(bytes.count / 2)))
        var damagedBytes = bytes
        damagedBytes[bytes.count / 3] ^= 0x55
        let damaged = store.fixture.dir.write("damaged.tgz", bytes: damagedBytes)
        for archive in [truncated, damaged] {
            let fd = open(archive, O_RDONLY)
            defer { close(fd) }
            #expect(throws: TarixError.self, "\(archive) (seed \(store.seed))") {
                _ = try TarixVerifier.verify(archive: fd, archiveName: archive, indexPath: store.index)
            }
            #expect(throws: TarixError.self, "\(archive) (seed \(store.seed))") {
                _ = try store.fixture.build(archive, label: "from-\((archive as NSString).lastPathComponent)")
            }
        }
        let fd = open(truncated, O_RDONLY)
        defer { close(fd) }
        do {
            _ = try TarixVerifier.verify(archive: fd, archiveName: truncated, indexPath: store.index)
        } catch {
            #expect(error.kind == "corrupt_archive" || error.kind == "bad_index", "\(error)")
        }
    }
}
