import GRDB
import GRDBSQLite

#if canImport(Glibc)
    import Glibc
#endif

/// The current row of a stepped entries statement (name, type, path, fragment: `IndexFormat.entriesSQL`), read
/// through SQLite's C API: a column's bytes are SQLite's own buffer, valid until the statement steps again.
struct RawEntryRow {
    /// What one column holds.
    enum Column {
        /// SQL NULL.
        case null
        /// Text (up to its first NUL byte, as GRDB reads text) or a blob: the bytes SQLite holds.
        case bytes(UnsafeBufferPointer<UInt8>)
        /// A number: only ``RawEntryRow/text(_:)`` reads it.
        case number
    }

    let statement: OpaquePointer
    /// Set when the statement is `CoreDataTables.sql` (the file and type columns are keys into these tables).
    var tables: CoreDataTables? = nil

    init(statement: OpaquePointer, tables: CoreDataTables? = nil) {
        self.statement = statement
        self.tables = tables
    }

    /// Column `index` without copying.
    func column(_ index: Int32) -> Column {
        let type = sqlite3_column_type(statement, index)
        switch type {
        case SQLITE_NULL:
            return .null
        case SQLITE_TEXT:
            guard let start = sqlite3_column_text(statement, index) else { return .bytes(.init(start: nil, count: 0)) }
            let count = Int(sqlite3_column_bytes(statement, index))
            let length = memchr(start, 0, count).map { UnsafeRawPointer(start).distance(to: $0) } ?? count
            return .bytes(UnsafeBufferPointer(start: start, count: length))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, index))
            guard count > 0, let start = sqlite3_column_blob(statement, index) else {
                return .bytes(.init(start: nil, count: 0))
            }
            return .bytes(UnsafeBufferPointer(start: start.assumingMemoryBound(to: UInt8.self), count: count))
        default:
            return .number
        }
    }

    /// Column `index` as text (blobs decoded as UTF-8, numbers printed), cut at `SourceIndex.maxFieldBytes`; nil
    /// for NULL. Exactly what GRDB's `DatabaseValue` gives for the column, converted to a `String`.
    func text(_ index: Int32) -> String? {
        switch column(index) {
        case .null: return nil
        case .bytes(let bytes): return Self.string(bytes)
        case .number:
            let string: String
            if sqlite3_column_type(statement, index) == SQLITE_INTEGER {
                string = String(sqlite3_column_int64(statement, index))
            } else {
                string = String(sqlite3_column_double(statement, index))
            }
            return Self.cut(string)
        }
    }

    /// `bytes` decoded as UTF-8 (invalid sequences replaced), cut at `SourceIndex.maxFieldBytes`.
    static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        cut(String(decoding: bytes, as: UTF8.self))
    }

    private static func cut(_ string: String) -> String {
        guard string.utf8.count > SourceIndex.maxFieldBytes else { return string }
        return String(decoding: string.utf8.prefix(SourceIndex.maxFieldBytes), as: UTF8.self)
    }
}
