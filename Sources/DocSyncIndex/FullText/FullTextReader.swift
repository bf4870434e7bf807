import Foundation
import GRDB

/// Queries one docset's text index (`FullTextWriter`'s), read-only.
package enum FullTextReader {
    /// One page found: its row, path and title, and its BM25 score (lower is better).
    package struct Row: Sendable, Equatable {
        package var page: String
        package var title: String
        package var score: Double
    }

    /// The best `limit` pages of the index at `path` matching `expression` (a `TextQuery.expression`), the title
    /// weighted ten times the body, on a connection `connections` keeps open, its statement prepared once. (FTS5's
    /// `rank` configured per query, `rank MATCH 'bm25(10.0, 1.0)' ORDER BY rank`, measured slower at 20k pages.)
    package static func search(
        path: String, expression: String, limit: Int, docset: String, connections: FullTextConnections
    ) throws(DocsetIndexError) -> [Row] {
        do {
            return try connections.withConnection(path: path) { queue in
                try queue.read { db in
                    let statement = try db.cachedStatement(
                        sql: """
                            SELECT pages.path, pages.title, hit.score FROM (
                                SELECT rowid, bm25(text, 10.0, 1.0) AS score FROM text WHERE text MATCH ?
                                ORDER BY score LIMIT ?) AS hit
                            JOIN pages ON pages.id = hit.rowid ORDER BY hit.score, pages.path
                            """)
                    return try GRDB.Row.fetchAll(statement, arguments: [expression, limit])
                        .map { Row(page: $0[0], title: $0[1], score: $0[2]) }
                }
            }
        } catch {
            throw .unreadable(docset, "text index \(path): \(error)")
        }
    }

    /// What is wrong with the index at `path` (`docsync verify`), nil when nothing is: not an SQLite database, a
    /// damaged B-tree (`PRAGMA quick_check`), another schema (`meta.layout`), pages and words that disagree, or an
    /// FTS5 index that fails its own `integrity-check` (run in a transaction that is rolled back: nothing written).
    package static func problem(path: String) -> String? {
        do {
            let queue = try DatabaseQueue(path: path)
            defer { try? queue.close() }
            return try queue.inDatabase { db -> String? in
                let check = try String.fetchAll(db, sql: "PRAGMA quick_check")
                guard check == ["ok"] else { return "damaged: \(check.prefix(3).joined(separator: "; "))" }
                let layout = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'layout'")
                guard layout == FullTextWriter.layoutVersion else {
                    return "schema \(layout ?? "none"), not \(FullTextWriter.layoutVersion)"
                }
                let pages = try Int.fetchOne(db, sql: "SELECT count(*) FROM pages") ?? 0
                let recorded = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'pages'")
                if let recorded, Int(recorded) != pages { return "\(pages) pages, \(recorded) recorded" }
                try db.execute(sql: "BEGIN")
                defer { try? db.execute(sql: "ROLLBACK") }
                try db.execute(sql: "INSERT INTO text(text) VALUES('integrity-check')")
                return nil
            }
        } catch {
            return "unreadable: \(error)"
        }
    }

    /// The `meta` of the index at `path` (empty when unreadable).
    package static func meta(path: String) -> [String: String] {
        var configuration = Configuration()
        configuration.readonly = true
        guard let queue = try? DatabaseQueue(path: path, configuration: configuration) else { return [:] }
        defer { try? queue.close() }
        let rows = (try? queue.read { db in try GRDB.Row.fetchAll(db, sql: "SELECT key, value FROM meta") }) ?? []
        return Dictionary(rows.map { ($0[0] as String, $0[1] as String) }, uniquingKeysWith: { a, _ in a })
    }
}
