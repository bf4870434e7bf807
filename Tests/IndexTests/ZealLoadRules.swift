import Foundation
import GRDB

/// Zeal's rules for loading a docset, reimplemented from its source (`Docset::Docset`, `Docset::createPageUrl`,
/// `Util::Database::tables`; zealdocs/zeal `src/libs/registry/docset.cpp`, `src/libs/util/database.cpp`) for a
/// docset on a root its user cannot write: nothing may need creating. `check` returns what Zeal would refuse; the
/// index page Zeal would open; and every index entry's file as Zeal's page server resolves it under `Documents/`.
enum ZealLoadRules {
    struct Result {
        var problems: [String] = []
        var indexPage: String?
        var pages: [String] = []
    }

    static func check(_ docsetPath: String) throws -> Result {
        var result = Result()
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        func directory(_ path: String) -> Bool {
            fm.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
        }
        guard directory(docsetPath) else { return Result(problems: ["no folder \(docsetPath)"]) }
        // loadMetadata(): meta.json's extra.indexFilePath.
        var metaIndexPath: String?
        if let data = fm.contents(atPath: "\(docsetPath)/meta.json"),
            let meta = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        {
            metaIndexPath = (meta["extra"] as? [String: Any])?["indexFilePath"] as? String
        }
        guard directory("\(docsetPath)/Contents") else {
            return Result(problems: ["Cannot change directory into 'Contents'"])
        }
        let plistPath =
            fm.fileExists(atPath: "\(docsetPath)/Contents/Info.plist")
            ? "\(docsetPath)/Contents/Info.plist" : "\(docsetPath)/Contents/info.plist"
        guard let plistData = fm.contents(atPath: plistPath),
            let plist = try? PropertyListSerialization.propertyList(from: plistData, format: nil) as? [String: Any]
        else { return Result(problems: ["Cannot find or parse 'Info.plist'"]) }
        let resources = "\(docsetPath)/Contents/Resources"
        guard directory(resources) else { return Result(problems: ["Cannot change directory into 'Resources'"]) }
        guard fm.fileExists(atPath: "\(resources)/docSet.dsidx") else { return Result(problems: ["no docSet.dsidx"]) }
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: "\(resources)/docSet.dsidx", configuration: configuration)
        defer { try? queue.close() }
        let rows: [(String, String)] = try queue.read { db in
            let tables = try String.fetchAll(
                db,
                sql: "SELECT name FROM (SELECT * FROM sqlite_master UNION ALL SELECT * FROM sqlite_temp_master)"
                    + " WHERE type='table' ORDER BY name")
            let dash = tables.contains { $0.lowercased() == "searchindex" }
            // createIndex() / createView() on a read-only file: they must exist already.
            let indexes = try String.fetchAll(
                db, sql: "SELECT name FROM pragma_index_list(?)", arguments: [dash ? "searchIndex" : "ztoken"])
            if !indexes.contains("__zi_name0001") { result.problems.append("no __zi_name0001 index") }
            if !dash {
                let views = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type='view'")
                if !views.contains(where: { $0.lowercased() == "searchindex" }) {
                    result.problems.append("no searchIndex view")
                    return []
                }
            }
            // Zeal's queries: Dash's fragment is '', ZDash's is the view's column.
            let sql = "SELECT path, \(dash ? "''" : "fragment") FROM searchIndex"
            return try Row.fetchAll(db, sql: sql).map { ($0[0] as String? ?? "", $0[1] as String? ?? "") }
        }
        let documents = "\(resources)/Documents"
        guard directory(documents) else {
            result.problems.append("Cannot change directory into 'Documents'")
            return result
        }
        // The index page: plist, then meta.json, then index.html, each only if it exists under Documents/.
        for candidate in [plist["dashIndexFilePath"] as? String, metaIndexPath, "index.html"] {
            if let candidate, fm.fileExists(atPath: "\(documents)/\(candidate)") {
                result.indexPage = candidate
                break
            }
        }
        let markup = try NSRegularExpression(pattern: "<dash_entry_.*>")
        for (path, fragment) in rows {
            var realPath =
                fragment.isEmpty ? String(path.split(separator: "#", omittingEmptySubsequences: false)[0]) : path
            realPath = markup.stringByReplacingMatches(
                in: realPath, range: NSRange(realPath.startIndex..., in: realPath), withTemplate: "")
            // url.setPath(base + "/" + realPath, QUrl::TolerantMode); the server serves the decoded path.
            let file = "\(documents)/\(realPath.removingPercentEncoding ?? realPath)"
            result.pages.append(file)
            if !fm.fileExists(atPath: file) { result.problems.append("dead entry \(path) -> \(file)") }
        }
        return result
    }
}
