import DocSyncSupport
import Foundation
import GRDB
import GRDBSQLite

#if canImport(Glibc)
    import Glibc
#endif

/// Reads the entries of a docset's `docSet.dsidx` without writing a byte beside it.
///
/// A self-contained index (rollback journal, no `-wal` / `-journal` beside it, as docsync leaves every index it
/// installs) is opened with `SQLITE_OPEN_READONLY`: SQLite takes shared locks and creates nothing. An index in WAL
/// mode (Apple's XAR docsets ship their entries in `docSet.dsidx-wal`; SQLite's `immutable` flag would ignore that
/// file and see no entries), or one with a journal beside it, is copied with its sidecar files into a scratch folder
/// in docsync's state folder and the copy is opened: SQLite replays the WAL into the copy, and the docset is untouched.
package enum SourceIndex {
    /// Entries beyond this many make the docset `tooLarge` by default (Apple's largest docsets have about a million).
    static let defaultMaxEntries = 5_000_000
    /// The page cache of a connection reading the entries (KiB).
    static let cacheKiB = 256
    /// Names and paths are cut at this many bytes.
    static let maxFieldBytes = 4096

    struct Entry {
        var name: String
        /// The normalised type (`EntryType.normalise`).
        var type: String
        /// The type as the index spells it.
        var rawType: String
        var location: EntryLocation
    }

    /// Calls `body` for every entry; returns the index's format.
    static func read(
        _ docset: IndexedDocset, scratchParent: String, maxEntries: Int,
        _ body: (Entry) throws(DocsetIndexError) -> Void
    ) throws(DocsetIndexError) -> IndexFormat {
        var normalised: [String: String] = [:]  // a docset has a few dozen raw types
        return try forEachRow(docset, scratchParent: scratchParent, maxEntries: maxEntries) {
            row throws(DocsetIndexError) in
            guard let name = row.text(0), !name.isEmpty, let rawPath = row.text(2) else { return }
            let location = EntryLocation(rawPath: rawPath, rawFragment: row.text(3))
            let rawType = row.text(1) ?? ""
            let type: String
            if let known = normalised[rawType] {
                type = known
            } else {
                type = EntryType.normalise(rawType)
                if normalised.count < 4096 { normalised[rawType] = type }
            }
            try body(Entry(name: name, type: type, rawType: rawType, location: location))
        }
    }

    /// Calls `body` with every row of the index's `IndexFormat.entriesSQL` (name, type, path, fragment), stepped
    /// with SQLite's C API (no `Row` values: the columns are read as the bytes SQLite holds); returns the format.
    /// With `joinInMemory`, a Core Data index may be read through `CoreDataTables` instead: then the rows are
    /// `CoreDataTables.sql`'s, with `RawEntryRow.tables` set (and `maxEntries` counts them before the tables' join).
    static func forEachRow(
        _ docset: IndexedDocset, scratchParent: String, maxEntries: Int, joinInMemory: Bool = false,
        _ body: (RawEntryRow) throws(DocsetIndexError) -> Void
    ) throws(DocsetIndexError) -> IndexFormat {
        let resources = try openResources(docset)
        defer { close(resources) }
        var st = stat()
        if fstatat(resources, "docSet.dsidx", &st, AT_SYMLINK_NOFOLLOW) != 0 {
            throw .io(docset.name, "\(docset.indexPath): \(String(cString: strerror(errno)))")
        }
        guard st.st_mode & S_IFMT == S_IFREG else { throw .io(docset.name, "\(docset.indexPath): not a regular file") }
        let needsCopy =
            isWALMode(resources) || exists(resources, "docSet.dsidx-wal") || exists(resources, "docSet.dsidx-journal")
        var scratch: String?
        defer { if let scratch { try? FileManager.default.removeItem(atPath: scratch) } }
        var configuration = Configuration()
        configuration.label = docset.name
        // One pass in table order needs few pages in cache: SQLite's default is 2 MB per connection, and two read
        // the same index while a docset is installed (its derived index, its content record).
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA cache_size = -\(Self.cacheKiB)") }
        let path: String
        var opened: Int32?  // the index SQLite reads, opened as a regular file (never a FIFO swapped in after fstatat)
        defer { if let opened { close(opened) } }
        if needsCopy {
            let folder = "\(scratchParent)/.read-\(UInt64.random(in: 0...UInt64.max))"
            scratch = folder
            try copySidecars(docset, from: resources, to: folder)
            path = "\(folder)/docSet.dsidx"
        } else {
            configuration.readonly = true
            do throws(SystemError) { opened = try RegularFile.open("docSet.dsidx", in: resources)?.fd } catch {
                throw .io(docset.name, "\(error)")
            }
            guard let opened else {
                throw .io(docset.name, "\(docset.indexPath): \(String(cString: strerror(ENOENT)))")
            }
            path = "/proc/self/fd/\(opened)"
        }
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            return try queue.read { db throws -> IndexFormat in
                guard let format = try IndexFormat.detect(db) else { throw DocsetIndexError.unknownSchema(docset.name) }
                let tables = joinInMemory && format == .coreData ? CoreDataTables.load(db) : nil
                let sql = tables == nil ? format.entriesSQL : CoreDataTables.sql
                let statement = try db.makeStatement(sql: sql)
                let row = RawEntryRow(statement: statement.sqliteStatement, tables: tables)
                var count = 0
                while true {
                    let code = sqlite3_step(statement.sqliteStatement)
                    if code == SQLITE_DONE { break }
                    guard code == SQLITE_ROW else {
                        throw DatabaseError(
                            resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage, sql: sql)
                    }
                    count += 1
                    if count > maxEntries {
                        throw DocsetIndexError.tooLarge(docset.name, "more than \(maxEntries) entries")
                    }
                    try body(row)
                }
                return format
            }
        } catch let error as DocsetIndexError {
            throw error
        } catch let error as DatabaseError {
            if error.resultCode == .SQLITE_NOTADB || error.resultCode == .SQLITE_CORRUPT {
                throw .notSQLite(docset.name, "not an SQLite database or corrupt (\(error.message ?? "\(error)"))")
            }
            throw .unreadable(docset.name, error.message ?? "\(error)")
        } catch {
            throw .unreadable(docset.name, "\(error)")
        }
    }

    /// `<docset>/Contents/Resources`, opened without following a symlink below the docset folder.
    static func openResources(_ docset: IndexedDocset) throws(DocsetIndexError) -> Int32 {
        let top = open(docset.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if top < 0 { throw .io(docset.name, "\(docset.path): \(String(cString: strerror(errno)))") }
        defer { close(top) }
        let contents = openat(top, "Contents", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        if contents < 0 { throw .io(docset.name, "\(docset.path)/Contents: \(String(cString: strerror(errno)))") }
        defer { close(contents) }
        let resources = openat(contents, "Resources", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        if resources < 0 {
            throw .io(docset.name, "\(docset.path)/Contents/Resources: \(String(cString: strerror(errno)))")
        }
        return resources
    }

    static func exists(_ directory: Int32, _ name: String) -> Bool {
        var st = stat()
        return fstatat(directory, name, &st, AT_SYMLINK_NOFOLLOW) == 0
    }

    /// True when the database header says WAL (file format bytes 18 and 19 are 2).
    package static func isWALMode(_ directory: Int32) -> Bool {
        guard let fd = (try? RegularFile.open("docSet.dsidx", in: directory)).flatMap({ $0?.fd }) else {
            return false
        }
        defer { close(fd) }
        var header = [UInt8](repeating: 0, count: 20)
        let n = header.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 20, 0) }
        return n == 20 && header[18] == 2 && header[19] == 2
    }

    /// Copies `docSet.dsidx` and its `-wal` / `-journal` (regular files only) into a new folder `target`.
    static func copySidecars(_ docset: IndexedDocset, from directory: Int32, to target: String)
        throws(DocsetIndexError)
    {
        if mkdir(target, 0o700) != 0 { throw .io(docset.name, "mkdir \(target): \(String(cString: strerror(errno)))") }
        for name in ["docSet.dsidx", "docSet.dsidx-wal", "docSet.dsidx-journal"] {
            let shown = "\(docset.path)/Contents/Resources/\(name)"
            let opened: (fd: Int32, size: Int64)?
            do throws(SystemError) { opened = try RegularFile.open(name, in: directory, path: shown) } catch {
                if error.operation != "open" && name != "docSet.dsidx" { continue }  // not a regular file
                throw .io(docset.name, "\(error)")
            }
            guard let source = opened?.fd else {
                if name != "docSet.dsidx" { continue }
                throw .io(docset.name, "\(shown): \(String(cString: strerror(ENOENT)))")
            }
            defer { close(source) }
            let sink = open("\(target)/\(name)", O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if sink < 0 { throw .io(docset.name, "\(target)/\(name): \(String(cString: strerror(errno)))") }
            defer { close(sink) }
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let n = buffer.withUnsafeMutableBytes { Glibc.read(source, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n < 0 { throw .io(docset.name, "read \(name): \(String(cString: strerror(errno)))") }
                if n == 0 { break }
                let written = buffer.withUnsafeBytes { Glibc.write(sink, $0.baseAddress, n) }
                if written != n {
                    throw .io(docset.name, "write \(target)/\(name): \(String(cString: strerror(errno)))")
                }
            }
        }
    }
}
