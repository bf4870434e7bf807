import DocSyncSupport
import Foundation
import GRDB

/// Rewrites a tarix index that is not in the form `TarixIndexWriter` writes — a publisher's, as Zeal's test and
/// Kapeli's feeds write it: a rowid table plus its primary key's index, every path stored twice, pages part empty —
/// into that form: the same rows, one packed B-tree keyed by `path`, about half the bytes (300,000 rows: 56 MB →
/// 28 MB). Run it on an index already checked in full against its archive (`TarixVerifier`); the rows are copied as
/// they are (a NULL `hash` becomes the empty text both readers treat it as: a directory).
package enum TarixIndexCompaction {
    /// True when the index at `path` is already in the writer's form: `tarindex` `WITHOUT ROWID`, no other index,
    /// no free pages.
    package static func isCompact(_ path: String) throws(TarixError) -> Bool {
        let database = try IndexDatabase(path: path)
        defer { database.close() }
        do {
            return try database.queue.read { db in
                let sql = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'tarindex'") ?? ""
                let indexes = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'index'")
                let free = try Int.fetchOne(db, sql: "PRAGMA freelist_count")
                return sql.uppercased().hasSuffix("WITHOUT ROWID") && indexes == 0 && free == 0
            }
        } catch {
            throw .badIndex(path, "cannot read the index: \(error)")
        }
    }

    /// Rewrites the index `name` in the folder open as `folderFD` (`folderPath` names it in messages) unless it is
    /// already compact: written beside it as `<name>-compact`, then renamed over it (a reader sees the old file or
    /// the new, never a mix). Returns true when it rewrote the file.
    @discardableResult
    package static func compact(name: String, in folderFD: Int32, folderPath: String) throws(TarixError) -> Bool {
        let source = "/proc/self/fd/\(folderFD)/\(name)"
        guard try !isCompact(source) else { return false }
        let temporary = name + "-compact"
        do {
            try copyRows(from: source, to: "/proc/self/fd/\(folderFD)/\(temporary)", name: "\(folderPath)/\(name)")
            try LinuxFS.rename(from: temporary, in: folderFD, to: name, in: folderFD)
        } catch let error as TarixError {
            unlinkat(folderFD, temporary, 0)
            throw error
        } catch {
            unlinkat(folderFD, temporary, 0)
            throw .io("\(folderPath)/\(name)", "cannot rewrite the index: \(error)")
        }
        return true
    }

    private static func copyRows(from source: String, to target: String, name: String) throws(TarixError) {
        let database = try IndexDatabase(path: source)
        defer { database.close() }
        let writer = try TarixIndexWriter(path: target)
        do {
            try database.queue.read { db in
                let rows = try Row.fetchCursor(db, sql: "SELECT path, hash FROM tarindex")
                while let row = try rows.next() {
                    let path: String? = row[0]
                    let hash: String? = row[1]
                    guard let path else { throw TarixError.badIndex(name, "a row has no path") }
                    try writer.add(path: path, hash: hash ?? "")
                }
            }
        } catch let error as TarixError {
            throw error
        } catch {
            throw .badIndex(name, "cannot read the index: \(error)")
        }
        try writer.commit()
    }
}
