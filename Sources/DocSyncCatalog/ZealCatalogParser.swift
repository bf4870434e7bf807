import DocSyncSupport

/// Zeal's catalogue (`GET https://api.zealdocs.org/v1/docsets`): a JSON array of
/// `{name, title, sourceId, revision, versions, icon, icon2x, extra, aliases, size, tarix, feed_url, urls}`.
/// Entries without a name are ignored; unknown fields are ignored. Pure.
///
/// Archive URLs: an entry that vouches for its archive with a `sha256` (what `docsync mirror publish` writes) is
/// authoritative: its own `urls`, in order, and nothing derived (a fleet host goes to the mirror, whose `urls`
/// already carry the upstream fallbacks), with the checksum enforced at install. Any other entry (Zeal's API)
/// gets the URLs derived from `[catalog] mirrors` first, then its own `urls`.
package enum ZealCatalogParser {
    /// - Parameters:
    ///   - catalog: the URL or path, for errors.
    ///   - mirrors: archive URLs are derived from these (then the entry's own `urls`).
    ///   - feedBase: Kapeli's feed folder, for `feed_url` when the entry has none (`<feedBase>/<name>.xml`).
    package static func parse(
        _ bytes: [UInt8], catalog: String = "<memory>", alternates: CatalogAlternates = CatalogAlternates(),
        feedBase: String = KapeliFeeds.defaultBase
    ) throws(CatalogError) -> Catalog {
        guard case .array(let items) = try CatalogJSON.decode(bytes, catalog: catalog) else {
            throw .unexpectedShape(catalog, detail: "expected a JSON array of docsets")
        }
        var entries: [CatalogEntry] = []
        for item in items {
            guard let object = item.object, let name = CatalogJSON.nonEmpty(object["name"]) else { continue }
            let sourceID = CatalogJSON.string(object["sourceId"]) ?? "com.kapeli.dash"
            let versions = CatalogJSON.strings(object["versions"]).map {
                KapeliVersion.complete($0, feedName: name)
            }
            let own = CatalogJSON.strings(object["urls"]).filter(Self.isWeb)
            let sha256 = CatalogJSON.string(object["sha256"]).flatMap(Self.digest)
            var derived: [String]
            switch sourceID {
            case "com.kapeli.cheatsheet": derived = alternates.cheatsheet(name)
            case "com.kapeli.contrib":
                derived = CatalogJSON.nonEmpty(object["archive"]).map { alternates.contribution(name, archive: $0) } ?? []
            default: derived = alternates.docset(name)
            }
            if sha256 != nil, !own.isEmpty { derived = [] }
            for url in own where !derived.contains(url) { derived.append(url) }
            let source: CatalogSource =
                switch sourceID {
                case "com.kapeli.cheatsheet": .cheatsheets
                case "com.kapeli.contrib": .contrib
                default: .zeal
                }
            let extra = object["extra"].flatMap { $0.object == nil ? nil : $0 }
            var entry =
                CatalogEntry(
                    source: source == .zeal ? .zeal : source, name: name,
                    title: CatalogJSON.nonEmpty(object["title"]) ?? name, versions: versions,
                    revision: CatalogJSON.nonEmpty(object["revision"]) ?? "0",
                    aliases: CatalogJSON.strings(object["aliases"]), icon: CatalogJSON.nonEmpty(object["icon"]),
                    icon2x: CatalogJSON.nonEmpty(object["icon2x"]), extra: extra, archives: derived,
                    feedURL: CatalogJSON.nonEmpty(object["feed_url"])
                        ?? (source == .zeal ? KapeliFeeds.feedURL(name, base: feedBase) : nil),
                    size: CatalogJSON.int64(object["size"]),
                    specificVersions: versions.dropFirst().map { .init(version: $0) }, sha256: sha256)
            // A docsync mirror's entry (it vouches with a sha256) names the mirror's Dash feed for docsync's own
            // use: a catalogue docset to Zeal, never a user feed whose `VERSION/REVISION` would differ from `version`.
            entry.listedFeedURL = sha256 == nil ? CatalogJSON.nonEmpty(object["feed_url"]) : nil
            entry.listedURLs = CatalogJSON.strings(object["urls"])
            if case .bool(let tarix) = object["tarix"] { entry.tarix = tarix }
            entries.append(entry)
        }
        return Catalog(source: .zeal, entries: entries)
    }

    /// Only http(s): a catalogue never makes docsync read a local file (`file://`) or another scheme.
    static func isWeb(_ url: String) -> Bool { url.hasPrefix("http://") || url.hasPrefix("https://") }

    /// A SHA-256 as 64 hex digits (lowercased); anything else is ignored (the entry is then not authoritative).
    static func digest(_ text: String) -> String? {
        let lower = text.lowercased()
        guard lower.utf8.count == 64, lower.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else { return nil }
        return lower
    }
}
