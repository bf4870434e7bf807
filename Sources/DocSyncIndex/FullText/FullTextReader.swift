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
    /// weighted ten times the body.
    package static func search(path: String, expression: String, limit: Int, docset: String) throws(DocsetIndexError)
        -> [Row]
    {
        do {
            var configuration = Configuration()
            configuration.readonly = true
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            return try queue.read { db in
                try GRDB.Row.fetchAll(
                    db,
                    sql: """
                        SELECT pages.path, pages.title, hit.score FROM (
                            SELECT rowid, bm25(text, 10.0, 1.0) AS score FROM text WHERE text MATCH ?
                            ORDER BY score LIMIT ?) AS hit
                        JOIN pages ON pages.id = hit.rowid ORDER BY hit.score, pages.path
                        """, arguments: [expression, limit]
                ).map { Row(page: $0[0], title: $0[1], score: $0[2]) }
            }
        } catch {
            throw .unreadable(docset, "text index \(path): \(error)")
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
