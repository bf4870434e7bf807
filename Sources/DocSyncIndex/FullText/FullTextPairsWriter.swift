import DocSyncSupport
import GRDB

#if canImport(Glibc)
    import Glibc
#endif

/// Writes a text index's `pairs` table (`FullTextPairs`) while `FullTextWriter` writes the rest: into a database of
/// its own (a dot-name beside the index being built), on a thread of its own, so FTS5 inserting the pages' pair
/// tokens (most of a build's SQLite work: 7.35 M page-token postings at 20,000 generated pages) runs beside FTS5
/// inserting their words instead of after them on one thread. ``close()`` commits and optimizes the table (beside
/// the writer optimizing `text`), ``finish()`` waits for it, and `FullTextWriter` copies its shadow tables into the
/// index before compacting it: the index keeps one file and its layout.
///
/// Pages are handed over through a queue of at most ``capacityBytes`` of tokens; memory: that queue, SQLite's cache
/// (`FullTextWriter.cacheKiB`) and FTS5's pending terms (``FullTextWriter/pairsPendingBytes``).
///
/// `@unchecked Sendable`: every mutable property is read and written only while holding `lock`; `queue` is used by
/// the writing thread alone until it has ended (`ended`), then by `copy(into:)`.
final class FullTextPairsWriter: @unchecked Sendable {
    /// Tokens queued at most (bytes).
    static let capacityBytes = 1 << 20
    /// Tokens the thread, once it has found the queue empty, waits for before it writes again (or the end): pages
    /// are handed over in runs, not a wake-up (a context switch each side) per page.
    static let handoverBytes = capacityBytes / 4
    /// Tokens written in one transaction: committing makes FTS5 write its pending terms as a segment, so fewer
    /// commits than `FullTextWriter`'s leave that to FTS5's own ``FullTextWriter/pairsPendingBytes``.
    static let transactionBytes = 16 << 20

    /// The database the table is written into.
    let path: String
    private let queue: DatabaseQueue
    private let lock = ConditionLock(conditions: 2)  // 0: pages or the end are there; 1: room, or the thread ended
    private var pending: [(id: Int64, tokens: String)] = []
    private var pendingBytes = 0
    private var closed = false
    private var cancelled = false
    private var ended = false
    private var failure: (any Error)?
    /// Whether the thread is waiting for pages (woken once ``handoverBytes`` are queued, or the end).
    private var threadWaits = false

    /// Creates the table in a new database at `path` and starts writing it.
    init(path: String) throws {
        self.path = path
        queue = try FullTextWriter.scratchDatabase(path: path)
        try queue.inDatabase { db in
            try db.execute(
                sql: """
                    \(Self.schema);
                    INSERT INTO pairs(pairs, rank) VALUES('hashsize', \(FullTextWriter.pairsPendingBytes));
                    INSERT INTO pairs(pairs, rank) VALUES('automerge', \(FullTextWriter.mergedSegments));
                    """)
        }
        try WorkerThread.tryStart(name: "docsync-fulltext-pairs", stackSize: 1 << 20) { [self] in run() }
    }

    /// The table's declaration (in the index too, where ``copy(into:)`` fills it).
    static let schema = """
        CREATE VIRTUAL TABLE pairs USING fts5(
            p, content='', detail=none, columnsize=0, tokenize="\(FullTextPairs.tokenizer)")
        """

    /// Queues page `id`'s tokens (waits while ``capacityBytes`` are queued); throws what stopped the thread.
    func add(id: Int64, tokens: String) throws {
        try lock.withLock { () throws in
            while pendingBytes >= Self.capacityBytes, !ended { lock.wait(on: 1) }
            if let failure { throw failure }
            pending.append((id, tokens))
            pendingBytes += tokens.utf8.count
            if threadWaits, pendingBytes >= Self.handoverBytes { lock.broadcast(0) }
        }
    }

    /// No page follows: the thread writes what is queued and optimizes the table (meanwhile the caller optimizes
    /// its own tables), then ends.
    func close() {
        lock.withLock {
            closed = true
            lock.broadcast(0)
        }
    }

    /// ``close()``, then waits until the thread has ended; throws what went wrong.
    func finish() throws {
        close()
        try lock.withLock { () throws in
            while !ended { lock.wait(on: 1) }
            if let failure { throw failure }
        }
    }

    /// Stops the thread (what is queued is dropped) and waits until it has ended; the database is left to delete.
    func cancel() {
        lock.withLock {
            cancelled = true
            closed = true
            lock.broadcast(0)
            while !ended { lock.wait(on: 1) }
        }
        try? queue.close()
    }

    /// Fills `db`'s empty `pairs` table (declared with ``schema``) with this one's, after ``finish()``: its shadow
    /// tables copied row for row (FTS5's segments, their index and its configuration), then this database closed.
    func copy(into db: Database) throws {
        try db.execute(sql: "ATTACH DATABASE ? AS built_pairs", arguments: [path])
        let tables = try String.fetchAll(
            db,
            sql: """
                SELECT name FROM built_pairs.sqlite_schema WHERE type = 'table' AND name LIKE 'pairs\\_%' ESCAPE '\\'
                """)
        try db.inTransaction {
            for table in tables.map(\.quotedDatabaseIdentifier) {
                try db.execute(sql: "DELETE FROM main.\(table)")
                try db.execute(sql: "INSERT INTO main.\(table) SELECT * FROM built_pairs.\(table)")
            }
            return .commit
        }
        try db.execute(sql: "DETACH DATABASE built_pairs")
        try queue.close()
    }

    private func run() {
        var failure: (any Error)?
        do {
            var batch: [(id: Int64, tokens: String)] = []
            var written = 0
            var inTransaction = false
            while true {
                let last = lock.withLock { () -> Bool in
                    if pending.isEmpty, !closed {
                        threadWaits = true
                        while pendingBytes < Self.handoverBytes, !closed { lock.wait(on: 0) }
                        threadWaits = false
                    }
                    swap(&batch, &pending)
                    pendingBytes = 0
                    lock.broadcast(1)
                    return closed
                }
                if lock.withLock({ cancelled }) { break }
                try queue.inDatabase { db in
                    let insert = try db.cachedStatement(sql: "INSERT INTO pairs(rowid, p) VALUES (?, ?)")
                    for page in batch {
                        if !inTransaction {
                            try db.execute(sql: "BEGIN")
                            inTransaction = true
                        }
                        try insert.execute(arguments: [page.id, page.tokens])
                        written += page.tokens.utf8.count
                        if written >= Self.transactionBytes {
                            try db.execute(sql: "COMMIT")
                            inTransaction = false
                            written = 0
                        }
                    }
                    if last {
                        if inTransaction { try db.execute(sql: "COMMIT") }
                        inTransaction = false
                        try db.execute(sql: "INSERT INTO pairs(pairs) VALUES('optimize')")
                    }
                }
                batch.removeAll(keepingCapacity: true)
                if last { break }
            }
        } catch {
            failure = error
        }
        lock.withLock {
            self.failure = failure
            ended = true
            lock.broadcast(1)
        }
    }
}
