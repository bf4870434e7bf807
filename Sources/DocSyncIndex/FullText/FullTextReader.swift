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

    /// Pages scored per query at most (or the limit, when larger): a query matching more is ranked among the
    /// first this many in the index's page order, plus the pages whose title holds its words.
    package static let candidates = 2000
    /// Pages whose title holds the words, scored at most, for a query matching more than ``candidates`` pages.
    package static let titleCandidates = 200
    /// Pages counted for a phrase's IDF at most; a phrase on more is estimated from where the count stopped.
    package static let counted = 1000
    /// Pages scored per query at most (or the limit, when larger) when it walks its candidates (`TextPairPlan`):
    /// each is a seek into the index, dearer than a step of one FTS5 query.
    package static let walked = 150
    /// Candidates a walk tests at most, per page it may score: a walk that tests more stops (its required words
    /// common, every page then scored matches).
    package static let walkedPerScored = 3
    /// A walk whose only source is one phrase on at least 1/this of the pages runs as one FTS5 query instead (its
    /// matches are dense: the first ``candidates`` come within a few times as many pages).
    package static let denseShare = 10

    /// The best `limit` pages of the index at `path` matching `query`, by BM25 with the title weighted ten times
    /// the body (`FullTextRanking`), on a connection `connections` keeps open. The cost is bounded by
    /// ``candidates``, not by the pages a word is on: a query matching at most that many pages is ranked exactly
    /// (all its pages scored); one matching more (every word common) is ranked among the first ``candidates``
    /// pages it matches in the index's page order together with the first ``titleCandidates`` pages whose title
    /// holds its words (a title match weighs ten times a body match, so those lead). Every page returned matches.
    package static func search(
        path: String, query: TextQuery, limit: Int, docset: String, connections: FullTextConnections
    ) throws(DocsetIndexError) -> [Row] {
        do {
            return try connections.withConnection(path: path) { queue in
                try queue.read { db in try search(db, query: query, limit: limit) }
            }
        } catch {
            throw .unreadable(docset, "text index \(path): \(error)")
        }
    }

    private static func search(_ db: Database, query: TextQuery, limit: Int) throws -> [Row] {
        let hasTerms = try hasTable(db, "terms")
        let plan = try TextSearchPlan(
            query,
            word: { word in
                guard hasTerms else { return nil }
                return try Int.fetchOne(
                    db.cachedStatement(sql: "SELECT pages FROM terms WHERE term = ?"), arguments: [word]) ?? 0
            },
            expand: { prefix in
                guard hasTerms else { return nil }
                let rows = try GRDB.Row.fetchAll(
                    db.cachedStatement(sql: "SELECT term, pages FROM terms WHERE term >= ? AND term < ? LIMIT ?"),
                    arguments: [prefix, prefix + "\u{10FFFF}", TextSearchPlan.maximumExpansion + 1])
                guard rows.count <= TextSearchPlan.maximumExpansion else { return nil }
                return rows.map { (word: $0[0], pages: $0[1]) }
            })
        guard !plan.matchesNothing else { return [] }
        let total = try Int.fetchOne(
            db.cachedStatement(sql: "SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'pages'")) ?? 0
        // A word on every page excluded: nothing can match.
        guard !plan.phrases.contains(where: { $0.excluded && total > 0 && $0.pages == total }) else { return [] }
        let pairs = try hasTable(db, "pairs") ? try pairPlan(db, query: query, plan: plan, total: total) : nil
        var idfs: [Double] = []
        var dense = false  // the walk's only source is a phrase on many pages: one FTS5 query finds them fast
        for phrase in plan.phrases {
            guard !phrase.excluded else {
                idfs.append(0)
                continue
            }
            let pages: Int
            if let known = phrase.pages {
                pages = known
            } else if let tokens = pairs?.phrases[phrase.expression] {
                pages = try count(db, FullTextPairs.expression(tokens), total: total, table: "pairs")
                if tokens == pairs?.walkedTokens, pages >= total / Self.denseShare { dense = true }
            } else {
                pages = try count(db, phrase.expression, total: total, table: "text")
            }
            idfs.append(FullTextRanking.idf(pages: pages, of: max(total, pages)))
        }
        let blob = FullTextRanking.idfBlob(idfs)
        var scored: [(rowid: Int64, score: Double)]
        let more: Bool
        var expression = plan.expression
        var checks: [TextPairPlan.Check] = []
        if let pairs, let walk = pairs.walk, !dense {
            expression = plan.expression(without: pairs.walkedExclusions)
            (scored, more) = try self.walk(
                db, walk, checks: pairs.checks, expression, idfs: blob, bound: max(limit, Self.walked))
            // A titled page is checked as a candidate, and for the walk's tokens (cheap: short doclists).
            checks = (pairs.walkedTokens ?? []).map { .init("pairs", FullTextPairs.expression([$0]), present: true) }
            checks += pairs.checks
        } else {
            let candidates = max(limit, Self.candidates)
            scored = try score(db, plan.expression, idfs: blob, limit: candidates + 1)
            more = scored.count > candidates
            if more { scored.removeLast() }
        }
        if more, try hasTable(db, "titles") {
            // Common words: the pages whose title holds them too (a title hit weighs ten body hits), each scored
            // with the whole expression (its exclusions apply).
            var seen = Set(scored.map(\.rowid))
            let titled = try Int64.fetchAll(
                db.cachedStatement(sql: "SELECT rowid FROM titles WHERE titles MATCH ? LIMIT ?"),
                arguments: [plan.requiredExpression, Self.titleCandidates])
            for rowid in titled where seen.insert(rowid).inserted {
                guard try passes(db, checks, rowid: rowid) else { continue }
                scored += try score(db, expression, idfs: blob, limit: 1, rowid: rowid)
            }
        }
        scored.sort { ($0.score, $0.rowid) < ($1.score, $1.rowid) }
        let page = try db.cachedStatement(sql: "SELECT path, title FROM pages WHERE id = ?")
        return try scored.prefix(limit).compactMap { hit in
            guard let row = try GRDB.Row.fetchOne(page, arguments: [hit.rowid]) else { return nil }
            return Row(page: row[0], title: row[1], score: hit.score)
        }
    }

    /// Whether the index has `table` (indexes of layout 1 have neither `terms` nor `titles`).
    static func hasTable(_ db: Database, _ table: String) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT count(*) FROM sqlite_master WHERE name = ? AND type = 'table'"),
            arguments: [table]) ?? false
    }

    /// The pages `expression` matches in `table` (`text`, or `pairs`: a phrase's pairs), counted up to
    /// ``counted``; beyond, estimated from the page the count stopped at (rows are numbered in page order, 1
    /// through `total`).
    private static func count(_ db: Database, _ expression: String, total: Int, table: String) throws -> Int {
        let row = try GRDB.Row.fetchOne(
            db.cachedStatement(
                sql: "SELECT count(*), max(rowid) FROM (SELECT rowid FROM \(table) WHERE \(table) MATCH ? LIMIT ?)"),
            arguments: [expression, Self.counted])
        let (found, last): (Int, Int) = (row?[0] ?? 0, row?[1] ?? 0)
        guard found >= Self.counted, last > 0 else { return found }
        return min(total, found * total / last)
    }

    /// The first `limit` pages `expression` matches in page order (or page `rowid`, when it matches), each with
    /// its score.
    static func score(
        _ db: Database, _ expression: String, idfs: Data, limit: Int, rowid: Int64? = nil
    ) throws -> [(rowid: Int64, score: Double)] {
        let select = "SELECT rowid, \(FullTextRanking.name)(text, 10.0, 1.0, ?) FROM text WHERE text MATCH ?"
        let statement = try db.cachedStatement(sql: select + (rowid == nil ? " LIMIT ?" : " AND rowid = ?"))
        var rows: [(rowid: Int64, score: Double)] = []
        let cursor = try GRDB.Row.fetchCursor(
            statement, arguments: [idfs, expression, rowid.map { Int($0) } ?? limit])
        while let row = try cursor.next() { rows.append((row[0], row[1])) }
        return rows
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
                guard let layout, FullTextWriter.readableLayouts.contains(layout) else {
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
