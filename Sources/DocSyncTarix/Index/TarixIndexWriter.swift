import DocSyncSupport
import Foundation
import GRDB

/// Writes a tarix index — SQLite, `tarindex(path TEXT PRIMARY KEY COLLATE NOCASE, hash TEXT)`, the schema Zeal's
/// reader and tests use — row by row as records stream past: rows are batched (at most `batchSize` in memory) into
/// one transaction committed by `commit()`.
///
/// GRDB (already the project's SQLite layer) rather than raw sqlite3 calls: prepared statements, typed errors and
/// constraint codes without hand-written pointer code, and the same SQLite build as every other index docsync reads.
final class TarixIndexWriter {
    static let schema = "CREATE TABLE tarindex(path TEXT PRIMARY KEY COLLATE NOCASE, hash TEXT)"
    private static let batchSize = 2048

    private let queue: DatabaseQueue
    private let path: String
    private var batch: [(path: String, hash: String)] = []
    private(set) var rows = 0

    /// Creates the database at `path`, which must not exist (nor be a symlink).
    init(path: String) throws(TarixError) {
        self.path = path
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .io(path, "cannot create the index: \(String(cString: strerror(errno)))") }
        close(fd)
        do {
            var configuration = Configuration()
            configuration.allowsUnsafeTransactions = true
            queue = try DatabaseQueue(path: path, configuration: configuration)
            try queue.inDatabase { db in
                try db.execute(sql: "PRAGMA journal_mode = DELETE")
                try db.execute(sql: Self.schema)
                try db.execute(sql: "BEGIN IMMEDIATE")
            }
        } catch {
            throw .io(path, "cannot create the index: \(error)")
        }
    }

    /// Adds one row; an empty `hash` marks a directory.
    func add(path rowPath: String, hash: String) throws(TarixError) {
        batch.append((rowPath, hash))
        rows += 1
        if batch.count >= Self.batchSize { try flushBatch() }
    }

    /// Drops every row added so far (the archive turned out to need re-encoding).
    func removeAll() throws(TarixError) {
        batch.removeAll()
        rows = 0
        do {
            try queue.inDatabase { db in try db.execute(sql: "DELETE FROM tarindex") }
        } catch {
            throw .io(path, "cannot reset the index: \(error)")
        }
    }

    /// Writes the last rows and commits; the database is then complete on disk.
    func commit() throws(TarixError) {
        try flushBatch()
        do {
            try queue.inDatabase { db in try db.execute(sql: "COMMIT") }
            try queue.close()
        } catch {
            throw .io(path, "cannot write the index: \(error)")
        }
    }

    private func flushBatch() throws(TarixError) {
        guard !batch.isEmpty else { return }
        let rows = batch
        batch.removeAll(keepingCapacity: true)
        do {
            try queue.inDatabase { db in
                let insert = try db.cachedStatement(sql: "INSERT INTO tarindex(path, hash) VALUES (?, ?)")
                for row in rows {
                    do {
                        try insert.execute(arguments: [row.path, row.hash])
                    } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                        let other = try String.fetchOne(
                            db, sql: "SELECT path FROM tarindex WHERE path = ?", arguments: [row.path])
                        throw TarixError.unsupportedEntry(
                            row.path.escapingControlCharacters,
                            other == row.path
                                ? "appears twice in the archive"
                                : "differs only in letter case from '\((other ?? "?").escapingControlCharacters)' "
                                    + "(the tarix index looks paths up without case)")
                    }
                }
            }
        } catch let error as TarixError {
            throw error
        } catch {
            throw .io(path, "cannot write the index: \(error)")
        }
    }
}
