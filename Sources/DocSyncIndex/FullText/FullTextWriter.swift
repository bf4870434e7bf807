import DocSyncSupport
import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#endif

/// Writes one docset's text index (`FullTextStore`): an FTS5 table of every page's title and visible text, with the
/// `unicode61` tokenizer (`remove_diacritics 2`) and full detail (phrases), *contentless* (`content=''`: the index
/// keeps the words and their positions, not the text; snippets are cut from the page itself when it is found), so
/// the index stays a fraction of the pages' size; `pages(id, path, title)` maps each row to its page, and
/// `terms(term, pages)` gives every word's page count (`TextSearchPlan`), `titles` the titles alone (`FullTextReader`).
///
/// The index is written under a dot-name, optimized (its segments merged into one), vacuumed and renamed into place; the docset's
/// `.building` lock is held meanwhile (`FullTextStore.State.building`). Memory: one batch of pages (at most
/// ``batchBytes`` of text) and SQLite's own caches. Not thread-safe: one builder per index.
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

    private let docsetName: String
    private let target: String
    private let building: String
    private let lock: Int32
    private let queue: DatabaseQueue
    private var batch: [(path: String, title: String, body: String)] = []
    private var batchSize = 0
    private var nextID: Int64 = 1
    /// The common and universal words (`FullTextPairs`), chosen on the first batch.
    private var pairWords: (common: Set<String>, universal: [String])?
    private var finished = false
    /// Pages indexed so far.
    package private(set) var pages = 0

    /// Starts `docset`'s index; nil when another thread or process is building it now.
    package init?(_ docset: IndexedDocset, stateDirectory: String) throws(DocsetIndexError) {
        let folder = FullTextStore.folder(stateDirectory: stateDirectory)
        docsetName = docset.name
        target = FullTextStore.path(of: docset, stateDirectory: stateDirectory)
        let key = DerivedIndex.key(for: docset)
        building = "\(folder)/.build-\(key)-\(UInt64.random(in: 0...UInt64.max)).db"
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
            var configuration = Configuration()
            configuration.journalMode = .default
            queue = try DatabaseQueue(path: building, configuration: configuration)
            try queue.inDatabase { db in
                try db.execute(
                    sql: """
                        PRAGMA journal_mode = OFF;
                        PRAGMA synchronous = OFF;
                        CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
                        CREATE TABLE pages(id INTEGER PRIMARY KEY, path TEXT NOT NULL, title TEXT NOT NULL);
                        CREATE VIRTUAL TABLE text USING fts5(
                            title, body, content='', tokenize='unicode61 remove_diacritics 2');
                        CREATE VIRTUAL TABLE titles USING fts5(
                            title, content='', columnsize=0, tokenize='unicode61 remove_diacritics 2');
                        CREATE VIRTUAL TABLE pairs USING fts5(
                            p, content='', detail=none, columnsize=0, tokenize="\(FullTextPairs.tokenizer)");
                        CREATE TABLE paired(term TEXT PRIMARY KEY, absent INTEGER NOT NULL) WITHOUT ROWID;
                        """)
            }
        } catch {
            unlink(building)
            flock(lock, LOCK_UN)
            close(lock)
            throw .io(docset.name, "cannot create the text index \(building): \(error)")
        }
    }

    deinit {
        if !finished {
            try? queue.close()
            unlink(building)
        }
        flock(lock, LOCK_UN)
        close(lock)
    }

    /// Adds one page (`path` relative to the documents folder).
    package func add(path: String, title: String, body: String) throws(DocsetIndexError) {
        batch.append((path, title, body))
        batchSize += path.utf8.count + title.utf8.count + body.utf8.count
        pages += 1
        if batchSize >= Self.batchBytes { try flush() }
    }

    /// Writes what is left, optimizes the index, and renames it into place; returns its size in bytes.
    @discardableResult
    package func finish(meta: [String: String] = [:]) throws(DocsetIndexError) -> Int64 {
        try flush()
        do {
            try queue.inDatabase { db in
                var all = meta
                all["layout"] = Self.layoutVersion
                all["pages"] = String(pages)
                for (key, value) in all {
                    try db.execute(sql: "INSERT INTO meta(key, value) VALUES (?, ?)", arguments: [key, value])
                }
                try db.execute(sql: "INSERT INTO text(text) VALUES('optimize')")
                try db.execute(sql: "INSERT INTO titles(titles) VALUES('optimize')")
                try db.execute(sql: "INSERT INTO pairs(pairs) VALUES('optimize')")
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
                // Merging the segments leaves about half the pages free: give them back (the index halves).
                try db.execute(sql: "VACUUM")
            }
            try queue.close()
        } catch {
            throw .io(docsetName, "cannot write the text index \(building): \(error)")
        }
        finished = true
        guard rename(building, target) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(building)
            throw .io(docsetName, "rename \(building) -> \(target): \(reason)")
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
            try queue.inTransaction { db in
                let page = try db.cachedStatement(sql: "INSERT INTO pages(id, path, title) VALUES (?, ?, ?)")
                let text = try db.cachedStatement(sql: "INSERT INTO text(rowid, title, body) VALUES (?, ?, ?)")
                let title = try db.cachedStatement(sql: "INSERT INTO titles(rowid, title) VALUES (?, ?)")
                let pair = try db.cachedStatement(sql: "INSERT INTO pairs(rowid, p) VALUES (?, ?)")
                let tokenizer = try db.makeTokenizer(Self.tokenizer)
                let tokenize = { (text: String) in try tokenizer.tokenize(document: text).map(\.token) }
                if pairWords == nil {
                    var counts: [String: Int] = [:]
                    for row in rows {
                        for word in Set(try tokenize(row.title + "\n" + row.body)) { counts[word, default: 0] += 1 }
                    }
                    pairWords = FullTextPairs.words(counts: counts, pages: rows.count)
                }
                let words = pairWords ?? ([], [])
                for row in rows {
                    try page.execute(arguments: [id, row.path, row.title])
                    try text.execute(arguments: [id, row.title, row.body])
                    if !row.title.isEmpty { try title.execute(arguments: [id, row.title]) }
                    let tokens = FullTextPairs.tokens(
                        title: try tokenize(row.title), body: try tokenize(row.body), common: words.common,
                        universal: words.universal)
                    if !tokens.isEmpty { try pair.execute(arguments: [id, tokens]) }
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
}
