import Foundation

/// The configuration of a client whose only source is one catalogue in Zeal's format (contributions and cheat
/// sheets off), choosing docsets by name: what a machine fed by a fleet mirror's `catalogue.json` writes.
package enum CatalogueClient {
    /// Writes the configuration to `file` and returns `file`. `root`, `staging` and `state` are `<folder>/root`, … (a
    /// relative `folder` resolves against the file's folder); `extra` lines (such as `[install]`) come before the
    /// catalogue tables; `mirrors`, when given, is `[catalog] mirrors` (Kapeli's archive hosts).
    @discardableResult
    package static func write(
        to file: String, catalogue: String, docsets: [String], folder: String? = nil, mirrors: [String]? = nil,
        extra: String = ""
    ) throws -> String {
        let prefix = folder.map { "\($0)/" } ?? ""
        var toml = "root = \"\(prefix)root\"\nstaging = \"\(prefix)staging\"\nstate = \"\(prefix)state\"\n\n"
        if !extra.isEmpty { toml += extra + "\n\n" }
        if let mirrors {
            toml += "[catalog]\nmirrors = [\(mirrors.map { "\"\($0)\"" }.joined(separator: ", "))]\n\n"
        }
        toml += "[catalog.zeal]\nurl = \"\(catalogue)\"\n\n"
        toml += "[catalog.contrib]\nurl = \"\"\n\n[catalog.cheatsheets]\nurl = \"\"\n"
        for docset in docsets { toml += "\n[[docset]]\nname = \"\(docset)\"\n" }
        try toml.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }
}
