import DocSyncSupport
import Foundation
import GRDB
import GRDBSQLite

#if canImport(Glibc)
    import Glibc
#endif

/// Writes one docset's text index (`FullTextStore`): an FTS5 table of every page's title and visible text, with the
/// `unicode61` tokenizer (`remove_diacritics 2`) and full detail (phrases), *contentless* (`content=''`: the index
/// keeps the words and their positions, not the text; snippets are cut from the page itself when it is found), so
/// the index stays a fraction of the pages' size; `pages(id, path, title)` maps each row to its page, and
/// `terms(term, pages)` gives every word's page count (`TextSearchPlan`), `titles` the titles alone (`FullTextReader`).
///
/// The index is written under a dot-name without a journal or syncs, optimized (its segments merged into one),
/// compacted into a second dot-name (`VACUUM INTO`), fsynced once and renamed into place; the docset's `.building`
/// lock is held meanwhile (`FullTextStore.State.building`). Pages come with their `pairs` tokens
/// (`add(path:title:body:pairs:)`, made on another thread by `TextPairTokens`, written at once, committed every
/// ``batchBytes`` of text) or without (`add(path:title:body:)`: held in batches of at most ``batchBytes`` of text,
/// the tokens made here). `pairs` is written on a thread of its own (`FullTextPairsWriter`) and copied in by
/// `finish`. Memory: SQLite's own caches (``cacheKiB`` for each of the two databases, FTS5's pending terms:
/// ``pairsPendingBytes`` for `pairs`), that batch, and the pairs writer's queue.
/// Not thread-safe: one builder per index.
package final class FullTextWriter {
    /// The schema's version (`meta.layout`): 2 added `terms` (every word and the pages it is on) and `titles` (an
    /// FTS5 table of the titles alone), 3 `pairs` and `paired` (`FullTextPairs`).
    package static let layoutVersion = "3"
    /// The schemas readers read (an index of version 1 has no `terms` nor `titles`: its prefixes are left to
    /// FTS5, its IDFs counted and no title pass made; one of version 2 no `pairs`: its phrases and exclusions of
    /// common words cost FTS5's doclist intersection). An index of an older version is rebuilt by the next sync
    /// (``isOutdated(path:)``), read meanwhile.
    package static let readableLayouts: Set<String> = ["1", "2", "3"]
    /// Text kept before a batch is written in one transaction.
    package static let batchBytes = 4 << 20
    /// FTS5's pending terms of `pairs` before they are written as a segment (FTS5's `hashsize`, 1 MiB by default,
    /// kept for `text`): FTS5 counts at least 128 bytes a distinct term, and `pairs`' pages hold many distinct
    /// tokens (181,000 at 20,000 generated pages), so at 1 MiB it wrote a segment every few dozen pages and merged
    /// those hundreds of small segments again and again.
    package static let pairsPendingBytes = 4 << 20
    /// Segments of one level FTS5 merges while the index is built (`automerge`, 4 by default), for `text` and
    /// `pairs`: each page of the index is rewritten fewer times before `finish` merges them all into one (a query
    /// never sees the difference); -10% of the build's SQLite instructions at 5,000 pages beside
    /// ``pairsPendingBytes``'s -22%.
    static let mergedSegments = 16
    /// SQLite's page cache while the index is built (KiB): segments are written and merged in order, a larger
    /// cache saves little, and `pairsPendingBytes` is paid for here (the build's peak RSS ≤ 64 MiB, #36).
    static let cacheKiB = 512

    private let docsetName: String
    private let folder: String
    private let target: String
    private let building: String
    /// Where the finished index is compacted (`VACUUM INTO`) before it is renamed into place.
    private let compacted: String
    private let lock: Int32
    private let queue: DatabaseQueue
    /// Writes the `pairs` table on a thread of its own, into a third dot-name, copied into the index by `finish`.
    private let pairsWriter: FullTextPairsWriter
    private var batch: [(path: String, title: String, body: String)] = []
    private var batchSize = 0
    private var nextID: Int64 = 1
    /// The common and universal words (`FullTextPairs`), chosen on the first batch or given (`use(pairWords:)`).
    private var pairWords: (common: Set<String>, universal: [String])?
    /// The `pairs` tokens of pages added without them.
    private var pairTokens: TextPairTokens?
    /// Whether pages added with their tokens are being written in a transaction, and their text since it began.
    private var inTransaction = false
    private var written = 0
    private var finished = false
    /// Pages indexed so far.
    package private(set) var pages = 0

    /// Starts `docset`'s index; nil when another thread or process is building it now.
    package init?(_ docset: IndexedDocset, stateDirectory: String) throws(DocsetIndexError) {
        let folder = FullTextStore.folder(stateDirectory: stateDirectory)
        self.folder = folder
        docsetName = docset.name
        target = FullTextStore.path(of: docset, stateDirectory: stateDirectory)
        let key = DerivedIndex.key(for: docset)
        let random = UInt64.random(in: 0...UInt64.max)
        building = "\(folder)/.build-\(key)-\(random).db"
        compacted = "\(folder)/.build-\(key)-\(random)-compacted.db"
        let pairsPath = "\(folder)/.build-\(key)-\(random)-pairs.db"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw .io(docset.name, "cannot create \(folder): \(error)")
        }
        let lockPath = "\(folder)/\(key).building"
        let lock = open(lockPath, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard lock >= 0 else { throw .io(docset.name, "cannot open \(lockPath): \(String(cString: strerror(errno)))") }
        guard flock(lock, LOCK_EX | LOCK_NB) == 0 else {
            close(lock)
            return nil
        }
        self.lock = lock
        do {
            queue = try Self.scratchDatabase(path: building)
            try queue.inDatabase { db in
                try db.execute(
                    sql: """
                        CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
                        CREATE TABLE pages(id INTEGER PRIMARY KEY, path TEXT NOT NULL, title TEXT NOT NULL);
                        CREATE VIRTUAL TABLE text USING fts5(
                            title, body, content='', tokenize='unicode61 remove_diacritics 2');
                        CREATE VIRTUAL TABLE titles USING fts5(
                            title, content='', columnsize=0, tokenize='unicode61 remove_diacritics 2');
                        \(FullTextPairsWriter.schema);
                        CREATE TABLE paired(term TEXT PRIMARY KEY, absent INTEGER NOT NULL) WITHOUT ROWID;
                        INSERT INTO text(text, rank) VALUES('automerge', \(Self.mergedSegments));
                        """)
            }
            pairsWriter = try FullTextPairsWriter(path: pairsPath)
        } catch {
            unlink(building)
            unlink(pairsPath)
            flock(lock, LOCK_UN)
            close(lock)
            throw .io(docset.name, "cannot create the text index \(building): \(error)")
        }
    }

    /// A database being built under a dot-name: no journal, no syncs (a crash leaves a file nobody reads; the
    /// finished index is synced once before its rename), SQLite's cache at ``cacheKiB``, and transactions that span
    /// accesses (pages added with their tokens, `add(…, pairs:)`, and `FullTextPairsWriter`'s batches).
    static func scratchDatabase(path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.journalMode = .default
        configuration.allowsUnsafeTransactions = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        try queue.inDatabase { db in
            try db.execute(
                sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -\(cacheKiB);")
        }
        return queue
    }

    deinit {
        if !finished {
            pairsWriter.cancel()
            unlink(pairsWriter.path)
            try? queue.close()
            unlink(building)
            unlink(compacted)
        }
        flock(lock, LOCK_UN)
        close(lock)
    }

    /// Adds one page (`path` relative to the documents folder); its `pairs` tokens are made here, the common words
    /// chosen on the first ``batchBytes`` of text (held until then).
    package func add(path: String, title: String, body: String) throws(DocsetIndexError) {
        batch.append((path, title, body))
        batchSize += path.utf8.count + title.utf8.count + body.utf8.count
        pages += 1
        if batchSize >= Self.batchBytes { try flush() }
    }

    /// Uses `words` as the common and universal words (chosen by the caller's ``TextPairTokens``) for the pages
    /// added with their `pairs` tokens; before the first page.
    package func use(pairWords words: (common: Set<String>, universal: [String])) {
        precondition(pages == 0 && pairWords == nil, "the pairs' words are chosen before the first page")
        pairWords = words
    }

    /// Adds one page with its `pairs` tokens (``TextPairTokens/tokens(title:body:)`` after ``use(pairWords:)``),
    /// written at once (a transaction committed every ``batchBytes`` of text): the pages are made elsewhere
    /// (`FullTextIndexing`'s parsing thread), this thread only writes.
    package func add(path: String, title: String, body: String, pairs: String) throws(DocsetIndexError) {
        precondition(pairWords != nil && batch.isEmpty, "use(pairWords:) first, and no page without its pairs")
        let id = nextID
        do {
            try queue.inDatabase { db in
                if !inTransaction {
                    try db.execute(sql: "BEGIN")
                    inTransaction = true
                }
                try write(db, id: id, path: path, title: title, body: body, pairs: pairs)
                // Committed every `batchBytes` of text, as batches are: SQLite's memory stays bounded.
                written += path.utf8.count + title.utf8.count + body.utf8.count
                if written >= Self.batchBytes {
                    try db.execute(sql: "COMMIT")
                    inTransaction = false
                    written = 0
                }
            }
        } catch {
            throw .io(docsetName, "cannot write the text index \(building): \(error)")
        }
        nextID += 1
        pages += 1
    }

    /// Writes what is left, optimizes the index, and renames it into place; returns its size in bytes.
    @discardableResult
    package func finish(meta: [String: String] = [:]) throws(DocsetIndexError) -> Int64 {
        try flush()
        // `pairs` is optimized on its thread while `text` is here.
        pairsWriter.close()
        do {
            try queue.inDatabase { db in
                if inTransaction { try db.execute(sql: "COMMIT") }
                inTransaction = false
                var all = meta
                all["layout"] = Self.layoutVersion
                all["pages"] = String(pages)
                for (key, value) in all {
                    try db.execute(sql: "INSERT INTO meta(key, value) VALUES (?, ?)", arguments: [key, value])
                }
                try db.execute(sql: "INSERT INTO text(text) VALUES('optimize')")
                try db.execute(sql: "INSERT INTO titles(titles) VALUES('optimize')")
                let words = pairWords ?? ([], [])
                let universal = Set(words.universal)
                for word in words.common.union(universal) {
                    try db.execute(
                        sql: "INSERT INTO paired(term, absent) VALUES (?, ?)",
                        arguments: [word, universal.contains(word) ? 1 : 0])
                }
                // Every word and the pages it is on, read once from the merged index: queries look up IDFs and
                // expand prefixes here instead of reading doclists (`TextSearchPlan`).
                try db.execute(
                    sql: """
                        CREATE TABLE terms(term TEXT PRIMARY KEY, pages INTEGER NOT NULL) WITHOUT ROWID;
                        CREATE VIRTUAL TABLE temp.vocabulary USING fts5vocab(main, 'text', 'row');
                        INSERT INTO terms SELECT term, doc FROM temp.vocabulary;
                        DROP TABLE temp.vocabulary;
                        """)
                // `pairs`, optimized meanwhile on its own thread, copied in.
                try pairsWriter.finish()
                try pairsWriter.copy(into: db)
                // Merging the segments leaves about half the pages free: the index is copied without them into
                // a second dot-name (`VACUUM INTO`: one copy, where `VACUUM` copies it out and back), which is
                // renamed into place.
                try db.execute(sql: "VACUUM INTO ?", arguments: [compacted])
            }
            try queue.close()
        } catch {
            unlink(compacted)
            throw .io(docsetName, "cannot write the text index \(building): \(error)")
        }
        finished = true
        unlink(building)
        unlink(pairsWriter.path)
        // Written without a journal nor syncs (a crash before the rename leaves a dot-name nobody reads): synced
        // once here, so the name readers open never holds a file whose pages are not on disk yet.
        let file = open(compacted, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        let synced = file >= 0 && fsync(file) == 0
        let reason = String(cString: strerror(errno))
        if file >= 0 { close(file) }
        guard synced, rename(compacted, target) == 0 else {
            let reason = synced ? String(cString: strerror(errno)) : "fsync: \(reason)"
            unlink(compacted)
            throw .io(docsetName, "rename \(compacted) -> \(target): \(reason)")
        }
        let folder = open(self.folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            _ = fsync(folder)
            close(folder)
        }
        var st = stat()
        return stat(target, &st) == 0 ? Int64(st.st_size) : 0
    }

    /// The `text` table's tokenizer, for `pairs`' words.
    static let tokenizer = FTS5TokenizerDescriptor(components: ["unicode61", "remove_diacritics", "2"])

    /// Whether the index at `path` has an older schema than this version writes (the next sync rebuilds it).
    package static func isOutdated(path: String) -> Bool {
        guard let layout = FullTextReader.meta(path: path)["layout"] else { return false }
        return layout != layoutVersion
    }

    private func flush() throws(DocsetIndexError) {
        guard !batch.isEmpty else { return }
        let rows = batch
        var id = nextID
        do {
            let tokens = try pairTokens ?? TextPairTokens()
            if pairTokens == nil {
                pairTokens = tokens
                if let words = pairWords {
                    tokens.use(words)
                } else {
                    try tokens.choose(rows.map { ($0.title, $0.body) })
                    pairWords = tokens.words
                }
            }
            try queue.inTransaction { db in
                for row in rows {
                    let pairs = try tokens.tokens(title: row.title, body: row.body)
                    try write(db, id: id, path: row.path, title: row.title, body: row.body, pairs: pairs)
                    id += 1
                }
                return .commit
            }
        } catch {
            throw .io(docsetName, "cannot write the text index \(building): \(error)")
        }
        nextID = id
        batch.removeAll(keepingCapacity: true)
        batchSize = 0
    }

    /// Inserts one page's rows.
    private func write(_ db: Database, id: Int64, path: String, title: String, body: String, pairs: String) throws {
        try Self.insert(db, "INSERT INTO pages(id, path, title) VALUES (?, ?, ?)", id, path, title)
        try Self.insert(db, "INSERT INTO text(rowid, title, body) VALUES (?, ?, ?)", id, title, body)
        if !title.isEmpty { try Self.insert(db, "INSERT INTO titles(rowid, title) VALUES (?, ?)", id, title) }
        if !pairs.isEmpty { try pairsWriter.add(id: id, tokens: pairs) }
    }

    /// Runs `sql` (an `INSERT` of `id` and one or two strings) with the strings bound in place with their lengths:
    /// GRDB binds a string with length -1 and `SQLITE_TRANSIENT`, so SQLite measured every body (`strlen`) and
    /// copied it before FTS5 read it.
    private static func insert(_ db: Database, _ sql: String, _ id: Int64, _ first: String, _ second: String? = nil)
        throws
    {
        let statement = try db.cachedStatement(sql: sql)
        let handle = statement.sqliteStatement
        var first = first
        var second = second ?? ""
        let code = first.withUTF8 { first in
            second.withUTF8 { second in
                sqlite3_bind_int64(handle, 1, id)
                bind(handle, 2, first)
                if sqlite3_bind_parameter_count(handle) > 2 { bind(handle, 3, second) }
                let code = sqlite3_step(handle)
                sqlite3_reset(handle)
                return code
            }
        }
        sqlite3_clear_bindings(handle)  // the strings' memory is only lent for the step
        guard code == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage, sql: sql)
        }
    }

    /// Binds `text` without a copy (`SQLITE_STATIC`: valid until the statement is stepped and reset).
    private static func bind(_ handle: OpaquePointer?, _ index: Int32, _ text: UnsafeBufferPointer<UInt8>) {
        guard let start = text.baseAddress else {
            let empty: StaticString = ""  // static storage
            empty.utf8Start.withMemoryRebound(to: CChar.self, capacity: 1) {
                _ = sqlite3_bind_text(handle, index, $0, 0, nil)
            }
            return
        }
        start.withMemoryRebound(to: CChar.self, capacity: text.count) {
            _ = sqlite3_bind_text(handle, index, $0, Int32(text.count), nil)
        }
    }
}
