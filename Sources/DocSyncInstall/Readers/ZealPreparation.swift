import DocSyncIndex
import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#endif

/// Completes a staged docset's `docSet.dsidx` at install time, before the version is published, so that no reader
/// ever needs to write it:
///
/// - `wal-checkpoint`: an index in WAL mode (Apple's XAR docsets keep their entries in `docSet.dsidx-wal`) is
///   checkpointed into a self-contained file (`journal_mode = DELETE`) and its `-wal` / `-shm` files removed, so a
///   read-only or `immutable` open sees every entry;
/// - `zeal-index`: Zeal's name index `__zi_name0001` (`COLLATE NOCASE`) on `searchIndex(name)` (Dash) or
///   `ztoken(ztokenname)` (Core Data), with Zeal's own statement — Zeal finds it and creates nothing;
/// - `zeal-view`: for Core Data indexes, Zeal's `searchIndex` view (name, type, path, fragment), Zeal's statement.
///
/// Returns the steps taken, for `meta.json`'s docsync record. An index that is not SQLite or has an unknown schema is
/// left as it is here; `ReaderLayoutPreparation`, which runs next, fails the install for it (no reader could open
/// the docset). A file-system error (disk full) throws and fails the install.
package enum ZealPreparation {
    /// Zeal's statements (zeal `src/libs/registry/docset.cpp`), byte for byte where Zeal composes them.
    static let dashIndexSQL = "CREATE INDEX IF NOT EXISTS __zi_name0001 ON searchIndex (name COLLATE NOCASE)"
    static let coreDataIndexSQL = "CREATE INDEX IF NOT EXISTS __zi_name0001 ON ztoken (ztokenname COLLATE NOCASE)"
    static let viewSQL =
        "CREATE VIEW IF NOT EXISTS searchIndex AS  SELECT    ztokenname AS name,    ztypename AS type,"
        + "    zpath AS path,    zanchor AS fragment  FROM ztoken  INNER JOIN ztokenmetainformation"
        + "    ON ztoken.zmetainformation = ztokenmetainformation.z_pk  INNER JOIN zfilepath"
        + "    ON ztokenmetainformation.zfile = zfilepath.z_pk  INNER JOIN ztokentype"
        + "    ON ztoken.ztokentype = ztokentype.z_pk"

    /// Prepares the docset whose folder is open as `docsetFD` (`path` names it in errors).
    package static func prepare(docsetFD: Int32, path: String) throws -> [String] {
        let contents = openat(docsetFD, "Contents", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard contents >= 0 else { return [] }
        defer { close(contents) }
        let resources = openat(contents, "Resources", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard resources >= 0 else { return [] }
        defer { close(resources) }
        var st = stat()
        guard fstatat(resources, "docSet.dsidx", &st, AT_SYMLINK_NOFOLLOW) == 0, st.st_mode & S_IFMT == S_IFREG else {
            return []
        }
        var steps: [String] = []
        do {
            let queue = try DatabaseQueue(path: "/proc/self/fd/\(resources)/docSet.dsidx")
            defer { try? queue.close() }
            try queue.writeWithoutTransaction { db in
                // No fsync of its own: the docset is staged, and the installer's `syncfs` before publishing makes
                // it durable with the rest of the tree (SQLite's syncs were four journal commits after extraction).
                try db.execute(sql: "PRAGMA synchronous = OFF")
                let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode")
                if mode?.lowercased() == "wal" {
                    let now = try String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE")
                    if now?.lowercased() == "delete" { steps.append("wal-checkpoint") }
                }
                guard let format = try IndexFormat.detect(db) else { return }
                if try createZealIndex(db, format: format) { steps.append("zeal-index") }
                if format == .coreData {
                    let exists =
                        try Bool.fetchOne(
                            db, sql: "SELECT count(*) > 0 FROM sqlite_master WHERE lower(name) = 'searchindex'")
                        ?? false
                    if !exists {
                        try db.execute(sql: viewSQL)
                        steps.append("zeal-view")
                    }
                }
            }
        } catch let error as DatabaseError {
            switch error.resultCode.primaryResultCode {
            case .SQLITE_FULL, .SQLITE_IOERR, .SQLITE_CANTOPEN, .SQLITE_READONLY:
                throw error
            default:
                return steps  // not SQLite, corrupt, or an odd schema: installed as it came
            }
        }
        if !SourceIndex.isWALMode(resources) {
            for sidecar in ["docSet.dsidx-wal", "docSet.dsidx-shm"] { unlinkat(resources, sidecar, 0) }
        }
        return steps
    }

    /// Zeal's `createIndex`: nothing when `__zi_name0001` exists; else drops older `__zi_name*` indexes and
    /// creates it. True when it created the index.
    private static func createZealIndex(_ db: Database, format: IndexFormat) throws -> Bool {
        let table = format == .dash ? "searchIndex" : "ztoken"
        let names = try String.fetchAll(db, sql: "SELECT name FROM pragma_index_list(?)", arguments: [table])
        var old: [String] = []
        for name in names where name.hasPrefix("__zi_name") {
            if name.hasSuffix("0001") { return false }
            old.append(name)
        }
        for name in old { try db.execute(sql: "DROP INDEX \(name.quotedDatabaseIdentifier)") }
        try db.execute(sql: format == .dash ? dashIndexSQL : coreDataIndexSQL)
        return true
    }
}
