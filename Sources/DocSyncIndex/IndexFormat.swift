import GRDB

/// Which of the two docset index layouts a `docSet.dsidx` uses, and how to read its entries.
package enum IndexFormat: String, Sendable {
    /// Kapeli's `searchIndex(id, name, type, path)`; `path` may carry `#fragment` and `<dash_entry_…>` markup.
    case dash
    /// Apple's Core Data store: `ZTOKEN`, `ZTOKENMETAINFORMATION`, `ZFILEPATH`, `ZTOKENTYPE`.
    case coreData = "core-data"

    /// The layout of an open index: a *table* `searchIndex` is Dash (a view of that name is Zeal's, over Core Data);
    /// else the four Core Data tables with the columns read here. Nil when neither is complete.
    package static func detect(_ db: Database) throws -> IndexFormat? {
        let tables = Set(
            try String.fetchAll(db, sql: "SELECT lower(name) FROM sqlite_master WHERE type = 'table'"))
        if tables.contains("searchindex"), try has(db, "searchIndex", ["name", "type", "path"]) { return .dash }
        let coreData: [(String, [String])] = [
            ("ztoken", ["z_pk", "ztokenname", "ztokentype", "zmetainformation"]),
            ("ztokenmetainformation", ["z_pk", "zfile", "zanchor"]),
            ("zfilepath", ["z_pk", "zpath"]),
            ("ztokentype", ["z_pk", "ztypename"]),
        ]
        for (table, columns) in coreData {
            guard tables.contains(table), try has(db, table, columns) else { return nil }
        }
        return .coreData
    }

    /// Every entry as (name, type, path, fragment); the fragment is NULL for Dash (it lives in `path`).
    package var entriesSQL: String {
        switch self {
        case .dash:
            "SELECT name, type, path, NULL FROM searchIndex"
        case .coreData:
            """
            SELECT ztokenname, ztypename, zpath, zanchor FROM ztoken
              JOIN ztokenmetainformation ON ztoken.zmetainformation = ztokenmetainformation.z_pk
              JOIN zfilepath ON ztokenmetainformation.zfile = zfilepath.z_pk
              JOIN ztokentype ON ztoken.ztokentype = ztokentype.z_pk
            """
        }
    }

    private static func has(_ db: Database, _ table: String, _ columns: [String]) throws -> Bool {
        let present = Set(
            try Row.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [table])
                .map { ($0["name"] as String? ?? "").lowercased() })
        return columns.allSatisfy(present.contains)
    }
}
