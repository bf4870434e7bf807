import DocSync
import DocSyncInstall
import Foundation

/// Builds real archives for tests with libarchive's writer.
package enum ArchiveFixture {
    package static func write(
        to path: String, format: ArchiveWriter.Format = .pax, filter: ArchiveWriter.Filter = .gzip,
        _ entries: [ArchiveWriter.Entry]
    ) throws {
        let writer = try ArchiveWriter(path: path, format: format, filter: filter)
        for entry in entries { try writer.add(entry) }
        try writer.close()
    }
}

/// Creates real SQLite docset indexes with the `sqlite3` command-line tool.
package enum SQLiteIndex {
    /// A Dash index with `rows` rows and Zeal's name index already in it (so docsync's install-time preparation
    /// leaves the file byte for byte as archived, and tests can compare installed trees with the fixture).
    package static func make(rows: Int) throws -> [UInt8] {
        let dir = try TemporaryDirectory("dsidx")
        defer { dir.remove() }
        let path = dir.appending("docSet.dsidx")
        var sql = "CREATE TABLE searchIndex(id INTEGER PRIMARY KEY, name TEXT, type TEXT, path TEXT);"
        sql += "CREATE INDEX __zi_name0001 ON searchIndex (name COLLATE NOCASE);"
        for i in 0..<rows {
            sql += "INSERT INTO searchIndex(name, type, path) VALUES('sym\(i)', 'Function', 'p\(i).html');"
        }
        let result = try Tool.run("/usr/bin/sqlite3", [path, sql])
        guard result.status == 0 else { throw ToolFailure(command: "sqlite3", output: result.standardError) }
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// `SELECT count(*) FROM searchIndex` through the sqlite3 CLI (nil when the query fails).
    package static func count(_ path: String) -> Int? {
        guard let result = try? Tool.run("/usr/bin/sqlite3", ["-readonly", path, "SELECT count(*) FROM searchIndex;"]),
            result.status == 0
        else { return nil }
        return Int(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
