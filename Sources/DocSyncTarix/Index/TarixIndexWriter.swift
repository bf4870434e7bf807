import DocSyncSupport
import Foundation
import GRDB

/// Writes a tarix index — SQLite, `tarindex(path TEXT PRIMARY KEY COLLATE NOCASE, hash TEXT) WITHOUT ROWID` — row
/// by row as records stream past: rows are batched (at most `batchSize` in memory) into one transaction on a scratch
/// database beside `path`; `commit()` copies it to `path` packed (`VACUUM INTO`: rows in key order, full pages, no
/// free pages) and removes the scratch.
///
/// The table is Zeal's and Dash's `tarindex(path, hash)` with `path` as its primary key — the statements Zeal's
/// reader runs (`WHERE path = ?`, `WHERE path LIKE …`) need no rowid — stored as one B-tree keyed by `path`
/// instead of a rowid table plus the primary key's index holding every path a second time: 300,000 rows take
/// 28 MB instead of 56 MB. Readers of either form are the same (`IndexDatabase` reads both; an index written by an
/// older docsync is a rowid table).
///
/// GRDB (already the project's SQLite layer) rather than raw sqlite3 calls: prepared statements, typed errors and
/// constraint codes without hand-written pointer code, and the same SQLite build as every other index docsync reads.
final class TarixIndexWriter {
    static let schema = "CREATE TABLE tarindex(path TEXT PRIMARY KEY COLLATE NOCASE, hash TEXT) WITHOUT ROWID"
    private static let batchSize = 2048

    /// The scratch database rows are written to (unsorted inserts leave B-tree pages part empty); nil once
    /// committed or closed.
    private var queue: DatabaseQueue?
    private let path: String
    private let scratchPath: String
    private var batch: [(path: String, hash: String)] = []
    private(set) var rows = 0

    /// Creates the database at `path`, which must not exist (nor be a symlink); `path-build`, the scratch, must not
    /// exist either.
    init(path: String) throws(TarixError) {
        self.path = path
        scratchPath = path + "-build"
        for file in [path, scratchPath] {
            let fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw .io(file, "cannot create the index: \(String(cString: strerror(errno)))") }
            close(fd)
        }
        do {
            var configuration = Configuration()
            configuration.allowsUnsafeTransactions = true
            let queue = try DatabaseQueue(path: scratchPath, configuration: configuration)
            self.queue = queue
            try queue.inDatabase { db in
                // A scratch: a failed build discards it, so no journal and no fsync.
                try db.execute(sql: "PRAGMA journal_mode = OFF")
                try db.execute(sql: "PRAGMA synchronous = OFF")
                try db.execute(sql: Self.schema)
                try db.execute(sql: "BEGIN IMMEDIATE")
            }
        } catch {
            discardScratch()
            throw .io(path, "cannot create the index: \(error)")
        }
    }

    deinit { discardScratch() }

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
            try openQueue().inDatabase { db in try db.execute(sql: "DELETE FROM tarindex") }
        } catch {
            throw .io(path, "cannot reset the index: \(error)")
        }
    }

    /// Writes the last rows and commits; the database is then complete at `path` (durable once the caller syncs its
    /// file system: the installer's `syncfs` before publishing) and the scratch is gone.
    func commit() throws(TarixError) {
        try flushBatch()
        do {
            try openQueue().inDatabase { db in
                try db.execute(sql: "COMMIT")
                try db.execute(sql: "VACUUM INTO ?", arguments: [path])
            }
        } catch {
            throw .io(path, "cannot write the index: \(error)")
        }
        discardScratch()
    }

    private func openQueue() throws(TarixError) -> DatabaseQueue {
        guard let queue else { throw .io(path, "the index is already written") }
        return queue
    }

    private func discardScratch() {
        try? queue?.close()
        queue = nil
        unlink(scratchPath)
    }

    private func flushBatch() throws(TarixError) {
        guard !batch.isEmpty else { return }
        let rows = batch
        batch.removeAll(keepingCapacity: true)
        do {
            try openQueue().inDatabase { db in
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
