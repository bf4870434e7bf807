import Foundation
import GRDB

extension FullTextReader {
    /// `query`'s use of the index's `pairs` table: the words of each term read by the index's tokenizer, each looked
    /// up in `paired` (`FullTextPairs`).
    static func pairPlan(_ db: Database, query: TextQuery, plan: TextSearchPlan, total: Int) throws -> TextPairPlan {
        let tokenizer = try db.makeTokenizer(FullTextWriter.tokenizer)
        let lookup = try db.cachedStatement(sql: "SELECT absent FROM paired WHERE term = ?")
        return try TextPairPlan(
            query, plan: plan, total: total, walkable: walked * walkedPerScored,
            tokens: { text in try tokenizer.tokenize(query: text).map(\.token) },
            paired: { word in try Bool.fetchOne(lookup, arguments: [word]) })
    }

    /// Walks `walk`'s candidates in page order, testing and scoring each with `expression` (a seek into the
    /// index), until more than `bound` pages matched or `bound` × ``walkedPerScored`` were tested; the pages found
    /// (at most `bound`), and whether the walk stopped before the end.
    static func walk(
        _ db: Database, _ walk: TextPairPlan.Walk, checks: [TextPairPlan.Check], _ expression: String, idfs: Data,
        bound: Int
    ) throws -> (scored: [(rowid: Int64, score: Double)], more: Bool) {
        let candidates = try Int64.fetchCursor(
            db.cachedStatement(sql: "SELECT rowid FROM \(walk.table) WHERE \(walk.table) MATCH ?"),
            arguments: [walk.expression])
        var scored: [(rowid: Int64, score: Double)] = []
        var tested = 0
        while let rowid = try candidates.next() {
            guard scored.count < bound, tested < bound * walkedPerScored else { return (scored, true) }
            tested += 1
            guard try passes(db, checks, rowid: rowid) else { continue }
            scored += try score(db, expression, idfs: idfs, limit: 1, rowid: rowid)
        }
        return (scored, false)
    }

    /// Whether page `rowid` passes every check (one seek each, in order; the first that fails ends it).
    static func passes(_ db: Database, _ checks: [TextPairPlan.Check], rowid: Int64) throws -> Bool {
        for check in checks {
            let sql = "SELECT 1 FROM \(check.table) WHERE \(check.table) MATCH ? AND rowid = ?"
            let found = try Bool.fetchOne(db.cachedStatement(sql: sql), arguments: [check.expression, rowid]) != nil
            guard found == check.present else { return false }
        }
        return true
    }
}
