/// Dash user contributions (`…/user_contributed/build/index.json`):
/// `{"docsets": {"<Key>": {"name", "version", "archive", "author": {"name", "link"}, "aliases",
/// "specific_versions": [{"version", "archive"}], "icon", "icon@2x"}}}`. Pure.
///
/// Archive URLs: the index's own folder first (`<folder>/<Key>/<archive>`, so a mirror of the index serves the
/// archives too), then the mirrors; a specific version lives under `<Key>/versions/<version>/`.
package enum ContribIndexParser {
    package static func parse(
        _ bytes: [UInt8], catalog: String = "<memory>", alternates: CatalogAlternates = CatalogAlternates()
    ) throws(CatalogError) -> Catalog {
        guard let docsets = try CatalogJSON.decode(bytes, catalog: catalog).object?["docsets"]?.object else {
            throw .unexpectedShape(catalog, detail: "expected {\"docsets\": {KEY: {…}}}")
        }
        let folder = Self.folder(of: catalog)
        var entries: [CatalogEntry] = []
        for key in docsets.keys.sorted() {
            guard let object = docsets[key]?.object, let archive = CatalogJSON.nonEmpty(object["archive"]) else {
                continue
            }
            func urls(_ archive: String, version: String?) -> [String] {
                let path = version.map { "versions/\(CatalogAlternates.segment($0))/" } ?? ""
                var result =
                    folder.map { ["\($0)/\(CatalogAlternates.segment(key))/\(path)\(CatalogAlternates.segment(archive))"] }
                    ?? []
                for url in alternates.contribution(key, archive: archive, version: version) where !result.contains(url) {
                    result.append(url)
                }
                return result
            }
            var specific: [CatalogEntry.SpecificVersion] = []
            if case .array(let list) = object["specific_versions"] {
                for item in list {
                    guard let v = item.object, let version = CatalogJSON.nonEmpty(v["version"]) else { continue }
                    let file = CatalogJSON.nonEmpty(v["archive"]) ?? archive
                    specific.append(.init(version: version, archives: urls(file, version: version)))
                }
            }
            let version = CatalogJSON.nonEmpty(object["version"])
            entries.append(
                CatalogEntry(
                    source: .contrib, name: key, title: CatalogJSON.nonEmpty(object["name"]) ?? key,
                    versions: (version.map { [$0] } ?? []) + specific.map(\.version).filter { $0 != version },
                    aliases: CatalogJSON.strings(object["aliases"]), icon: CatalogJSON.nonEmpty(object["icon"]),
                    icon2x: CatalogJSON.nonEmpty(object["icon@2x"]), archives: urls(archive, version: nil),
                    specificVersions: specific,
                    author: object["author"]?.object.flatMap { CatalogJSON.nonEmpty($0["name"]) }))
        }
        return Catalog(source: .contrib, entries: entries)
    }

    /// The folder of an http(s) catalogue URL (`…/build/index.json` → `…/build`); nil for a file.
    static func folder(of catalog: String) -> String? {
        guard catalog.hasPrefix("http://") || catalog.hasPrefix("https://"),
            let slash = catalog.lastIndex(of: "/"), catalog[..<slash].contains("://"),
            !catalog[..<slash].hasSuffix("/")
        else { return nil }
        return String(catalog[..<slash])
    }
}
