/// Dash cheat sheets (`https://kapeli.com/feeds/zzz/cheatsheets/cheat.json`):
/// `{"cheatsheets": {"<Key>": {"name", "version", "aliases"}}}`, with trailing commas tolerated (Kapeli's file has
/// them). Archives: `<mirror>/zzz/cheatsheets/<Key>.tgz`. Cheat sheets have no older versions. Pure.
package enum CheatsheetIndexParser {
    package static func parse(
        _ bytes: [UInt8], catalog: String = "<memory>", alternates: CatalogAlternates = CatalogAlternates()
    ) throws(CatalogError) -> Catalog {
        let json = try CatalogJSON.decode(CatalogJSON.strippingTrailingCommas(bytes), catalog: catalog)
        guard let sheets = json.object?["cheatsheets"]?.object else {
            throw .unexpectedShape(catalog, detail: "expected {\"cheatsheets\": {KEY: {…}}}")
        }
        let entries = sheets.keys.sorted().compactMap { key -> CatalogEntry? in
            guard let object = sheets[key]?.object else { return nil }
            return CatalogEntry(
                source: .cheatsheets, name: key, title: CatalogJSON.nonEmpty(object["name"]) ?? key,
                versions: CatalogJSON.nonEmpty(object["version"]).map { [$0] } ?? [],
                aliases: CatalogJSON.strings(object["aliases"]), archives: alternates.cheatsheet(key))
        }
        return Catalog(source: .cheatsheets, entries: entries)
    }
}
