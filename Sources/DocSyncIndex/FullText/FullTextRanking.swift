import Foundation
import GRDB
import GRDBSQLite

/// `docsync_bm25(text, titleWeight, bodyWeight, idfs)`: an FTS5 auxiliary function scoring the current row by BM25
/// exactly as FTS5's own `bm25()` does (k1 = 1.2, b = 0.75, each column's hits weighted, lower is better), except
/// that each phrase's IDF is given (`idfs`: a blob of native `Double`s, one per phrase of the `MATCH` expression, in
/// its order; ``idfBlob(_:)``) instead of being
/// counted when the query starts: FTS5's `bm25()` reads the whole doclist of every phrase for that count, which for
/// a word on every page of a 300k-page docset costs more than the query itself (`TextSearchPlan` computes the IDFs
/// from the index's `terms` table or a bounded count). Registered on each connection `FullTextConnections` opens.
enum FullTextRanking {
    /// The function's SQL name.
    static let name = "docsync_bm25"

    /// Registers ``name`` on `db`.
    static func register(_ db: Database) {
        let api = FTS5.api(db)
        _ = api.pointee.xCreateFunction(UnsafeMutablePointer(mutating: api), name, nil, score, nil)
    }

    /// `idfs` as the function reads them.
    static func idfBlob(_ idfs: [Double]) -> Data { idfs.withUnsafeBufferPointer { Data(buffer: $0) } }

    /// BM25's IDF of a phrase on `pages` of `total` pages, as FTS5 computes it (never below 1e-6).
    static func idf(pages: Int, of total: Int) -> Double {
        let value = log((Double(total) - Double(pages) + 0.5) / (Double(pages) + 0.5))
        return value > 0 ? value : 1e-6
    }

    private static let score: fts5_extension_function = { api, fts, context, count, values in
        guard let api = api?.pointee, let values, count == 3 else {
            sqlite3_result_error(context, "docsync_bm25: title and body weights and IDFs expected", -1)
            return
        }
        let idfs = sqlite3_value_blob(values[2])
        let given = Int(sqlite3_value_bytes(values[2])) / MemoryLayout<Double>.size
        let phrases = Int(api.xPhraseCount(fts))
        let weights = (sqlite3_value_double(values[0]), sqlite3_value_double(values[1]))
        var rows: sqlite3_int64 = 0
        var tokens: sqlite3_int64 = 0
        var instances: Int32 = 0
        var size: Int32 = 0
        guard api.xRowCount(fts, &rows) == SQLITE_OK, api.xColumnTotalSize(fts, -1, &tokens) == SQLITE_OK,
            api.xInstCount(fts, &instances) == SQLITE_OK, api.xColumnSize(fts, -1, &size) == SQLITE_OK
        else {
            sqlite3_result_error(context, "docsync_bm25: cannot read the row", -1)
            return
        }
        // FTS5's arithmetic, operation for operation (the same scores to the last bit, ties broken alike).
        let averageLength = Double(tokens) / Double(max(rows, 1))
        let (k1, b) = (1.2, 0.75)
        let length = Double(size)
        withUnsafeTemporaryAllocation(of: Double.self, capacity: max(phrases, 1)) { frequency in
            frequency.initialize(repeating: 0)
            var phrase: Int32 = 0
            var column: Int32 = 0
            var offset: Int32 = 0
            for index in 0..<instances where api.xInst(fts, index, &phrase, &column, &offset) == SQLITE_OK {
                guard phrase >= 0, Int(phrase) < phrases else { continue }
                frequency[Int(phrase)] += column == 0 ? weights.0 : weights.1
            }
            var total = 0.0
            for index in 0..<phrases where frequency[index] > 0 {
                let idf = index < given ? idfs?.loadUnaligned(fromByteOffset: index * 8, as: Double.self) ?? 1e-6 : 1e-6
                let saturation = frequency[index] + k1 * (1 - b + b * length / averageLength)
                total += idf * ((frequency[index] * (k1 + 1.0)) / saturation)
            }
            sqlite3_result_double(context, -total)
        }
    }
}
