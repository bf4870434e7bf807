import DocSync
internal import DocSyncCatalog
internal import DocSyncSupport

extension DocSyncConfigurationLoader {
    /// `[catalog]` (`mirrors`), `[catalog.zeal|contrib|cheatsheets] url`, `[catalog.kapeli] base_url`, and the
    /// `[[docset]]` tables (`name`, optional `version` or `versions`, `source`, `keywords`).
    func readCatalogs(_ reader: inout TableReader, into config: inout DocSyncConfiguration) throws(DocSyncConfigurationError) {
        if var catalog = try reader.table("catalog") {
            if let alternates = try catalog.typed("mirrors", "an array of URLs", { $0.array }) {
                var bases: [String] = []
                for (index, value) in alternates.enumerated() {
                    guard let url = value.string, url.hasPrefix("http://") || url.hasPrefix("https://") else {
                        throw catalog.error("mirrors[\(index + 1)]", "expected an http(s) URL")
                    }
                    bases.append(url)
                }
                config.catalogs.alternates = bases
            }
            config.catalogs.zeal = try location(&catalog, "zeal", key: "url", default: config.catalogs.zeal)
            config.catalogs.kapeliBase = try location(
                &catalog, "kapeli", key: "base_url", default: config.catalogs.kapeliBase)
            config.catalogs.contrib = try location(&catalog, "contrib", key: "url", default: config.catalogs.contrib)
            config.catalogs.cheatsheets = try location(
                &catalog, "cheatsheets", key: "url", default: config.catalogs.cheatsheets)
            try catalog.finish()
        }
        for (index, var table) in try reader.tables("docset").enumerated() {
            let key = "docset[\(index + 1)]"
            guard let name = try table.string("name"), !name.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw table.error("name", "missing (a catalogue name such as \"Python_3\")")
            }
            var source: CatalogSource? = nil
            if let text = try table.string("source") {
                guard let parsed = CatalogSource(rawValue: text.lowercased()) else {
                    let known = CatalogSource.allCases.map(\.rawValue).joined(separator: ", ")
                    throw table.error("source", "\"\(text)\" is not a catalogue (one of: \(known))")
                }
                source = parsed
            }
            let version = try table.string("version").flatMap { $0.isEmpty ? nil : $0 }
            if config.docsets.contains(where: { $0.name.lowercased() == name.lowercased() }) {
                throw DocSyncConfigurationError(file: table.file, key: "\(key).name", problem: "\"\(name)\" is selected twice")
            }
            var selection = DocSyncConfiguration.DocsetSelection(name: name, version: version, source: source)
            selection.keywords = try keywords(&table)
            selection.versions = try versions(&table, pinned: version)
            config.docsets.append(selection)
            try table.finish()
        }
    }

    /// `versions = ["3.12", "3.13"]`: a non-empty list of distinct versions (`"latest"` at most once), and no
    /// `version` beside it.
    private func versions(_ table: inout TableReader, pinned: String?) throws(DocSyncConfigurationError) -> [String] {
        guard let array = try table.typed("versions", "an array of versions", { $0.array }) else { return [] }
        if let pinned {
            throw table.error(
                "versions", "both `version = \"\(pinned.escapingControlCharacters)\"` and `versions`: keep one")
        }
        if array.isEmpty { throw table.error("versions", "empty (list the versions to keep side by side)") }
        var versions: [String] = []
        for (index, value) in array.enumerated() {
            guard let version = value.string, !version.trimmingCharacters(in: .whitespaces).isEmpty,
                !version.contains("/"), !version.contains(where: \.isNewline)
            else { throw table.error("versions[\(index + 1)]", "expected a version such as \"3.12\" or \"latest\"") }
            if versions.contains(version) {
                throw table.error("versions[\(index + 1)]", "\"\(version.escapingControlCharacters)\" is listed twice")
            }
            versions.append(version)
        }
        return versions
    }

    /// `keywords = ["py", "python"]`: non-empty words without `:`, `,` or spaces (they could never be typed before
    /// a search's `:`), lowercased, each once.
    private func keywords(_ table: inout TableReader) throws(DocSyncConfigurationError) -> [String] {
        guard let array = try table.typed("keywords", "an array of keywords", { $0.array }) else { return [] }
        var keywords: [String] = []
        for (index, value) in array.enumerated() {
            guard let keyword = value.string, !keyword.isEmpty,
                !keyword.contains(where: { $0 == ":" || $0 == "," || $0.isWhitespace || $0.isNewline })
            else {
                throw table.error(
                    "keywords[\(index + 1)]", "expected a keyword such as \"py\" (no spaces, \":\" or \",\")")
            }
            if keywords.contains(keyword.lowercased()) {
                throw table.error("keywords[\(index + 1)]", "\"\(keyword.escapingControlCharacters)\" is listed twice")
            }
            keywords.append(keyword.lowercased())
        }
        return keywords
    }

    /// A catalogue's location: an http(s) URL or a path (relative to the config file); empty turns it off.
    private func location(_ catalog: inout TableReader, _ name: String, key: String, default value: String?)
        throws(DocSyncConfigurationError) -> String?
    {
        guard var table = try catalog.table(name) else { return value }
        let text = try table.string(key)
        try table.finish()
        guard let text else { return value }
        if text.isEmpty { return nil }
        if text.hasPrefix("http://") || text.hasPrefix("https://") { return text }
        if text.contains("://") { throw table.error(key, "only http, https and local paths are supported") }
        return try table.resolvePath(text, key: key)
    }
}
