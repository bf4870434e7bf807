import DocSyncSupport
import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#endif

/// Builds a docset's derived search index in docsync's state folder (never inside the docset):
///
/// ```
/// <state>/index/<key>/entries.sqlite   entry(id, name, type, path, fragment), types(id, name), meta(key, value)
/// <state>/index/<key>/names.bin        the lowercased names sorted bytewise, for binary search and scans
/// ```
/// `<key>` is the version folder's name (`NAME@ID`) for docsets docsync installed (immutable, so the key says it
/// all), or `ext-` and a hash of the folder's path for others. `meta.source` records the size, modification time
/// and inode of `docSet.dsidx` and its `-wal`: a mismatch makes the index stale and it is rebuilt.
/// The folder is built under a dot-name and renamed into place, so a reader sees a complete index or none.
enum DerivedIndexBuilder {
    /// Builds the index of `docset` into `<indexFolder>/<key>`; returns its entry count.
    static func build(_ docset: IndexedDocset, key: String, source: String, indexFolder: String, maxEntries: Int)
        throws(DocsetIndexError) -> Int
    {
        let building = "\(indexFolder)/.build-\(key)-\(UInt64.random(in: 0...UInt64.max))"
        do {
            try FileManager.default.createDirectory(atPath: building, withIntermediateDirectories: true)
        } catch {
            throw .io(docset.name, "cannot create \(building): \(error)")
        }
        defer { try? FileManager.default.removeItem(atPath: building) }

        let names = NameTable.Builder()
        let count: Int
        do {
            let queue = try DatabaseQueue(path: "\(building)/entries.sqlite")
            defer { try? queue.close() }
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
                try db.execute(
                    sql: """
                        CREATE TABLE entry(id INTEGER PRIMARY KEY, name TEXT NOT NULL, type TEXT NOT NULL,
                          path TEXT NOT NULL, fragment TEXT);
                        CREATE TABLE types(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                        CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
                        """)
            }
            var types: [String: UInt16] = [:]
            var format = IndexFormat.dash
            try queue.inTransaction { db in
                let insert = try db.makeStatement(
                    sql: "INSERT INTO entry(id, name, type, path, fragment) VALUES (?, ?, ?, ?, ?)")
                var id = 0
                format = try SourceIndex.read(
                    docset, scratchParent: indexFolder, maxEntries: maxEntries
                ) { entry throws(DocsetIndexError) in
                    let typeID: UInt16
                    if let known = types[entry.type] {
                        typeID = known
                    } else {
                        guard types.count < Int(UInt16.max) else {
                            throw .tooLarge(docset.name, "more than \(UInt16.max) entry types")
                        }
                        typeID = UInt16(types.count)
                        types[entry.type] = typeID
                    }
                    id += 1
                    do {
                        try insert.execute(arguments: [
                            id, entry.name, entry.type, entry.location.path, entry.location.fragment,
                        ])
                    } catch {
                        throw .io(docset.name, "writing the derived index: \(error)")
                    }
                    try names.append(entry.name, id: UInt32(id), type: typeID, docset: docset.name)
                }
                for (name, typeID) in types {
                    try db.execute(sql: "INSERT INTO types(id, name) VALUES (?, ?)", arguments: [Int(typeID), name])
                }
                let meta: [(String, String)] = [
                    ("source", source), ("format", format.rawValue), ("entries", String(id)),
                    ("docset", docset.name), ("layout", "2"),
                ]
                for (k, v) in meta {
                    try db.execute(sql: "INSERT INTO meta(key, value) VALUES (?, ?)", arguments: [k, v])
                }
                return .commit
            }
            count = names.count
        } catch let error as DocsetIndexError {
            throw error
        } catch {
            throw .io(docset.name, "writing the derived index in \(building): \(error)")
        }
        try names.write(to: "\(building)/names.bin", docset: docset.name)
        try syncFile("\(building)/entries.sqlite", docset: docset.name)
        try install(building, as: "\(indexFolder)/\(key)", docset: docset.name)
        return count
    }

    private static func syncFile(_ path: String, docset: String) throws(DocsetIndexError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        defer { if fd >= 0 { close(fd) } }
        if fd < 0 || fsync(fd) != 0 { throw .io(docset, "fsync \(path): \(String(cString: strerror(errno)))") }
    }

    /// Renames the finished folder into place, moving a stale one aside first (readers keep what they opened).
    private static func install(_ building: String, as target: String, docset: String) throws(DocsetIndexError) {
        if rename(building, target) == 0 { return }
        guard errno == ENOTEMPTY || errno == EEXIST else {
            throw .io(docset, "rename \(building) -> \(target): \(String(cString: strerror(errno)))")
        }
        let aside = "\(building).old"
        if rename(target, aside) != 0 || rename(building, target) != 0 {
            throw .io(docset, "replace \(target): \(String(cString: strerror(errno)))")
        }
        try? FileManager.default.removeItem(atPath: aside)
    }
}
