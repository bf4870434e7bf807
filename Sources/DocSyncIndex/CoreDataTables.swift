import GRDB
import GRDBSQLite

/// Apple's Core Data index with its two small tables in memory — `ZFILEPATH`'s paths and `ZTOKENTYPE`'s names by
/// primary key — so that streaming every entry costs SQLite one lookup per row (`ZTOKEN` → `ZTOKENMETAINFORMATION`,
/// ``sql``) instead of three (`IndexFormat.entriesSQL`).
///
/// Used only when it gives exactly the rows of `entriesSQL` in the same order: SQLite's plan for `entriesSQL` scans
/// `ZTOKEN` and finds each of the three other tables by its integer primary key (so at most one row each, in
/// `ZTOKEN`'s order), the plan for ``sql`` scans `ZTOKEN` the same way, and every path is text, a blob or NULL.
/// A row whose file or type is missing is skipped, as the inner join drops it; a key that is not an integer (never
/// written by Core Data) is resolved by SQLite with the join's own comparison (``fileKey(_:)``, ``typeKey(_:)``).
/// Not used when the paths take more than ``maxPathBytes`` (memory stays bounded whatever the docset).
final class CoreDataTables {
    /// Name, type key, file key, anchor, the token's and the meta information's primary keys.
    static let sql = """
        SELECT ztokenname, ztoken.ztokentype, ztokenmetainformation.zfile, zanchor, ztoken.z_pk,
          ztokenmetainformation.z_pk FROM ztoken
          JOIN ztokenmetainformation ON ztoken.zmetainformation = ztokenmetainformation.z_pk
        """
    /// At most this many bytes of paths are held.
    static let maxPathBytes = 16 << 20

    /// A file's path as `RawEntryRow.column` gives it; missing: no such file (the join drops the row).
    enum Path {
        case missing
        case null
        case bytes(UnsafeBufferPointer<UInt8>)
    }

    private let storage: UnsafeMutablePointer<UInt8>
    private let paths: [Path]
    private let fileKeys: KeyMap
    private let types: [(raw: String, type: String)]
    private let typeKeys: KeyMap
    private let fileStatement: OpaquePointer
    private let typeStatement: OpaquePointer
    private let statements: [Statement]

    /// The tables of the index open in `db`; nil when ``sql`` would not give `entriesSQL`'s rows (see above).
    static func load(_ db: Database) -> CoreDataTables? {
        do {
            guard try plan(db, IndexFormat.coreData.entriesSQL) == [
                "scan ztoken", "search ztokenmetainformation using integer primary key (rowid=?)",
                "search zfilepath using integer primary key (rowid=?)",
                "search ztokentype using integer primary key (rowid=?)",
            ] else { return nil }
            guard try plan(db, sql) == [
                "scan ztoken", "search ztokenmetainformation using integer primary key (rowid=?)",
            ] else { return nil }
            var bytes: [UInt8] = []
            var spans: [(start: Int, count: Int)] = []  // count -1: NULL
            var fileKeys: [Int64] = []
            let files = try db.makeStatement(sql: "SELECT z_pk, zpath FROM zfilepath")
            while sqlite3_step(files.sqliteStatement) == SQLITE_ROW {
                guard sqlite3_column_type(files.sqliteStatement, 0) == SQLITE_INTEGER else { return nil }
                fileKeys.append(sqlite3_column_int64(files.sqliteStatement, 0))
                switch RawEntryRow(statement: files.sqliteStatement).column(1) {
                case .null: spans.append((0, -1))
                case .number: return nil
                case .bytes(let path):
                    spans.append((bytes.count, path.count))
                    bytes.append(contentsOf: path)
                    if bytes.count > maxPathBytes { return nil }
                }
            }
            var types: [(raw: String, type: String)] = []
            var typeKeys: [Int64] = []
            let typeRows = try db.makeStatement(sql: "SELECT z_pk, ztypename FROM ztokentype")
            while sqlite3_step(typeRows.sqliteStatement) == SQLITE_ROW {
                guard sqlite3_column_type(typeRows.sqliteStatement, 0) == SQLITE_INTEGER else { return nil }
                typeKeys.append(sqlite3_column_int64(typeRows.sqliteStatement, 0))
                let raw = RawEntryRow(statement: typeRows.sqliteStatement).text(1) ?? ""
                types.append((raw, EntryType.normalise(raw)))
                if types.count > 1 << 20 { return nil }
            }
            let file = try db.makeStatement(
                sql: """
                    SELECT zfilepath.z_pk FROM ztokenmetainformation
                      JOIN zfilepath ON ztokenmetainformation.zfile = zfilepath.z_pk
                      WHERE ztokenmetainformation.z_pk = ?
                    """)
            let type = try db.makeStatement(
                sql: """
                    SELECT ztokentype.z_pk FROM ztoken JOIN ztokentype ON ztoken.ztokentype = ztokentype.z_pk
                      WHERE ztoken.z_pk = ?
                    """)
            return CoreDataTables(
                bytes: bytes, spans: spans, fileKeys: fileKeys, types: types, typeKeys: typeKeys,
                statements: [file, type])
        } catch {
            return nil
        }
    }

    private init(
        bytes: [UInt8], spans: [(start: Int, count: Int)], fileKeys: [Int64], types: [(raw: String, type: String)],
        typeKeys: [Int64], statements: [Statement]
    ) {
        storage = .allocate(capacity: Swift.max(1, bytes.count))
        storage.initialize(from: bytes, count: bytes.count)
        let base = storage
        paths = spans.map { span -> Path in
            span.count < 0 ? .null : .bytes(UnsafeBufferPointer(start: base + span.start, count: span.count))
        }
        self.fileKeys = KeyMap(fileKeys)
        self.types = types
        self.typeKeys = KeyMap(typeKeys)
        self.statements = statements
        fileStatement = statements[0].sqliteStatement
        typeStatement = statements[1].sqliteStatement
    }

    deinit { storage.deallocate() }

    /// The path of the file row `statement`'s column 2 names (its key), or of the meta information row of column 5
    /// when the key is not an integer.
    func path(_ statement: OpaquePointer) -> Path {
        guard let index = key(statement, column: 2, fallback: fileStatement, keys: fileKeys) else { return .missing }
        return paths[index]
    }

    /// The raw and normalised type of the type row column 1 names (or of the token of column 4 when the key is not
    /// an integer); nil when there is none.
    func type(_ statement: OpaquePointer) -> (raw: String, type: String)? {
        guard let index = key(statement, column: 1, fallback: typeStatement, keys: typeKeys) else { return nil }
        return types[index]
    }

    private func key(_ statement: OpaquePointer, column: Int32, fallback: OpaquePointer, keys: KeyMap) -> Int? {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER:
            return keys[sqlite3_column_int64(statement, column)]
        case SQLITE_NULL:
            return nil
        default:
            // Not an integer: SQLite compares it as the join does (`… = z_pk`), for this row's own key.
            sqlite3_reset(fallback)
            sqlite3_bind_int64(fallback, 1, sqlite3_column_int64(statement, column == 2 ? 5 : 4))
            defer { sqlite3_reset(fallback) }
            guard sqlite3_step(fallback) == SQLITE_ROW else { return nil }
            return keys[sqlite3_column_int64(fallback, 0)]
        }
    }

    /// Primary keys to row indexes: an array when the keys are dense, else a dictionary.
    private struct KeyMap {
        private var dense: [Int32] = []
        private var sparse: [Int64: Int] = [:]

        init(_ keys: [Int64]) {
            let largest = keys.max() ?? 0
            if (keys.min() ?? 0) >= 0 && largest <= 4 * Int64(keys.count) + 1024 {
                dense = [Int32](repeating: -1, count: Int(largest) + 1)
                for (index, key) in keys.enumerated() { dense[Int(key)] = Int32(index) }
            } else {
                for (index, key) in keys.enumerated() { sparse[key] = index }
            }
        }

        subscript(key: Int64) -> Int? {
            if !dense.isEmpty || sparse.isEmpty {
                guard key >= 0 && key < dense.count else { return nil }
                let index = dense[Int(key)]
                return index < 0 ? nil : Int(index)
            }
            return sparse[key]
        }
    }

    /// SQLite's plan for `sql`, one lowercased line per step (`scan table t` written `scan t`, as SQLite 3.36+ does).
    private static func plan(_ db: Database, _ sql: String) throws -> [String] {
        try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql).map { row in
            ((row["detail"] as String?) ?? "").lowercased().replacingOccurrences(of: "scan table ", with: "scan ")
                .replacingOccurrences(of: "search table ", with: "search ")
        }
    }
}
