import DocSync
import Foundation
import GRDB
import TestSupport

/// Docsets with real-shaped indexes, made in the test: Kapeli's Dash schema (`searchIndex` + unique `anchor` index,
/// `<dash_entry_…>` markup and `#fragments` in `path`) and Apple's Core Data schema (Z_PK/Z_ENT/Z_OPT columns,
/// tokens joined to their metainformation, file path and type), optionally left in WAL mode with every entry in the
/// `-wal` file, as Apple's XAR docsets ship.
struct IndexFixture {
    struct Entry {
        var name: String
        var type: String
        var path: String
        var fragment: String? = nil
    }

    /// Writes `<parent>/<name>.docset` with a Dash index of `entries`; returns the docset folder.
    @discardableResult
    static func dash(_ name: String, in parent: String, _ entries: [Entry]) throws -> String {
        let folder = try skeleton(name, in: parent)
        let queue = try DatabaseQueue(path: "\(folder)/Contents/Resources/docSet.dsidx")
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE searchIndex(id INTEGER PRIMARY KEY, name TEXT, type TEXT, path TEXT);
                    CREATE UNIQUE INDEX anchor ON searchIndex (name, type, path);
                    """)
            for e in entries {
                try db.execute(
                    sql: "INSERT INTO searchIndex(name, type, path) VALUES (?, ?, ?)",
                    arguments: [e.name, e.type, e.path])
            }
        }
        try queue.close()
        return folder
    }

    /// Writes `<parent>/<name>.docset` with an Apple Core Data index of `entries` (WAL mode with the entries in the
    /// `-wal` when `wal`); returns the docset folder.
    @discardableResult
    static func coreData(_ name: String, in parent: String, _ entries: [Entry], wal: Bool = false) throws -> String {
        let folder = try skeleton(name, in: parent)
        let path = "\(folder)/Contents/Resources/docSet.dsidx"
        var configuration = Configuration()
        if wal { configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = 0") } }
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        if wal {
            try queue.writeWithoutTransaction { db in _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") }
        }
        try queue.writeWithoutTransaction { db in
            try db.execute(
                sql: """
                    CREATE TABLE ZTOKENTYPE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTYPENAME VARCHAR);
                    CREATE TABLE ZFILEPATH (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZPATH VARCHAR);
                    CREATE TABLE ZTOKENMETAINFORMATION (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER,
                      ZTOKEN INTEGER, ZFILE INTEGER, ZANCHOR VARCHAR, ZDECLARATION VARCHAR, ZABSTRACT VARCHAR);
                    CREATE TABLE ZTOKEN (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTOKENTYPE INTEGER,
                      ZMETAINFORMATION INTEGER, ZTOKENNAME VARCHAR, ZTOKENUSR VARCHAR);
                    CREATE INDEX ZTOKEN_ZTOKENTYPE_INDEX ON ZTOKEN (ZTOKENTYPE);
                    """)
            // Like Apple's: the schema is in the main file, the entries only in the -wal.
            if wal { _ = try Row.fetchAll(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        }
        try queue.inTransaction { db in
            var types: [String: Int] = [:]
            var files: [String: Int] = [:]
            for (i, e) in entries.enumerated() {
                let pk = i + 1
                let type = types[e.type] ?? (types.count + 1)
                if types[e.type] == nil {
                    types[e.type] = type
                    try db.execute(
                        sql: "INSERT INTO ZTOKENTYPE(Z_PK, ZTYPENAME) VALUES (?, ?)", arguments: [type, e.type])
                }
                let file = files[e.path] ?? (files.count + 1)
                if files[e.path] == nil {
                    files[e.path] = file
                    try db.execute(sql: "INSERT INTO ZFILEPATH(Z_PK, ZPATH) VALUES (?, ?)", arguments: [file, e.path])
                }
                try db.execute(
                    sql: "INSERT INTO ZTOKENMETAINFORMATION(Z_PK, ZTOKEN, ZFILE, ZANCHOR) VALUES (?, ?, ?, ?)",
                    arguments: [pk, pk, file, e.fragment])
                try db.execute(
                    sql: "INSERT INTO ZTOKEN(Z_PK, ZTOKENTYPE, ZMETAINFORMATION, ZTOKENNAME) VALUES (?, ?, ?, ?)",
                    arguments: [pk, type, pk, e.name])
            }
            return .commit
        }
        if wal {
            // Keep the entries in the -wal as Apple ships them: copy both files while the connection holds them
            // (closing the last connection would checkpoint and delete the -wal).
            let fm = FileManager.default
            try fm.copyItem(atPath: path, toPath: path + ".keep")
            try fm.copyItem(atPath: path + "-wal", toPath: path + ".keep-wal")
            try queue.close()
            for suffix in ["", "-wal", "-shm"] { try? fm.removeItem(atPath: path + suffix) }
            try fm.moveItem(atPath: path + ".keep", toPath: path)
            try fm.moveItem(atPath: path + ".keep-wal", toPath: path + "-wal")
        } else {
            try queue.close()
        }
        return folder
    }

    /// `Contents/Info.plist` and `Contents/Resources/Documents/index.html`.
    static func skeleton(_ name: String, in parent: String) throws -> String {
        let folder = "\(parent)/\(name).docset"
        try FileManager.default.createDirectory(
            atPath: "\(folder)/Contents/Resources/Documents", withIntermediateDirectories: true)
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>CFBundleName</key><string>\(name)</string></dict></plist>
            """
        try Data(plist.utf8).write(to: URL(fileURLWithPath: "\(folder)/Contents/Info.plist"))
        try Data("<html>\(name)</html>".utf8).write(
            to: URL(fileURLWithPath: "\(folder)/Contents/Resources/Documents/index.html"))
        return folder
    }

    /// A tar.gz of the docset folder `folder` (named `<name>.docset/` inside), for installing.
    static func archive(_ folder: String, to path: String) throws {
        let parent = URL(fileURLWithPath: folder).deletingLastPathComponent().path
        let base = URL(fileURLWithPath: folder).lastPathComponent
        let result = try Tool.run("/bin/tar", ["-C", parent, "-czf", path, base])
        guard result.status == 0 else { throw FixtureError(message: "tar: \(result.standardError)") }
    }

    /// Path → SHA-256 of every regular file under `root` (following no links), plus every entry's name and mode.
    static func hashes(_ root: String) throws -> [String: String] {
        try TreeSnapshot.of(root, excluding: [])
    }

    /// Number of rows `sql` returns through the sqlite3 command-line tool opened on `uri`.
    static func sqliteCount(_ uri: String, _ sql: String) throws -> Int? {
        let result = try Tool.run("/usr/bin/sqlite3", [uri, sql])
        guard result.status == 0 else { return nil }
        return Int(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

struct FixtureError: Error {
    let message: String
}

/// A realistic mixed fixture: Apple-style and Dash-style entries with markup, fragments and type aliases.
enum Samples {
    static let dash: [IndexFixture.Entry] = [
        .init(name: "printf", type: "func", path: "c/printf.html#printf"),
        .init(name: "sprintf", type: "Function", path: "c/sprintf.html"),
        .init(
            name: "std::vector", type: "cl",
            path: "<dash_entry_name=std::vector><dash_entry_originalName=vector>cpp/vector.html#//dash_ref/Class/vector"
        ),
        .init(name: "std::vector::push_back", type: "Public Member Functions", path: "cpp/vector.html#push_back"),
        .init(name: "PRINT_MAX", type: "macro", path: "c/limits.html#PRINT_MAX"),
        .init(name: "Guide to printing", type: "Guide", path: "guides/printing.html"),
    ]
    static let coreData: [IndexFixture.Entry] = [
        .init(
            name: "NSString", type: "cl", path: "documentation/Foundation/NSString.html",
            fragment: "//apple_ref/occ/cl/NSString"),
        .init(
            name: "length", type: "instm", path: "documentation/Foundation/NSString.html",
            fragment: "//apple_ref/occ/instm/NSString/length"),
        .init(
            name: "NSMutableArray", type: "cl", path: "documentation/Foundation/NSMutableArray.html",
            fragment: "//apple_ref/occ/cl/NSMutableArray"),
        .init(
            name: "stringWithFormat:", type: "clm", path: "documentation/Foundation/NSString.html",
            fragment: "//apple_ref/occ/clm/NSString/stringWithFormat:"),
        .init(name: "NSUTF8StringEncoding", type: "econst", path: "documentation/Foundation/constants.html"),
    ]
}
