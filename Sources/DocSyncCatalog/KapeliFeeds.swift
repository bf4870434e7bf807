import DocSyncFeed

/// Kapeli's official feeds: one Dash feed per docset at `<base>/<Name>.xml`, its `<url>`s the mirrors of the latest
/// archive, `<other-versions>` the older versions (a `.`-prefixed one completed with the name's suffix). Pure.
public enum KapeliFeeds {
    public static let defaultBase = "https://kapeli.com/feeds"

    public static func feedURL(_ name: String, base: String = defaultBase) -> String {
        let trimmed = base.hasSuffix("/") ? String(base.dropLast()) : base
        return "\(trimmed)/\(CatalogMirrors.segment(name)).xml"
    }

    /// The feed as a catalogue entry: versions newest first (latest, then `other-versions` completed, deduplicated),
    /// archives the feed's mirrors, each older version's archives derived from them
    /// (`…/feeds/<Name>.tgz` → `…/feeds/zzz/versions/<Name>/<V>/<Name>.tgz`).
    public static func entry(from document: FeedDocument, name: String, feedURL: String) -> CatalogEntry? {
        guard let feedEntry = document.entries.first else { return nil }
        let latest = feedEntry.version.map { KapeliVersion.complete($0, feedName: name) }
        var versions = latest.map { [$0] } ?? []
        for other in feedEntry.otherVersions {
            let version = KapeliVersion.complete(other, feedName: name)
            if !version.isEmpty, !versions.contains(version) { versions.append(version) }
        }
        let archives = feedEntry.archives.map(\.url)
        let older = versions.dropFirst().map {
            CatalogEntry.SpecificVersion(version: $0, archives: archives.compactMap(versioned(version: $0, name: name)))
        }
        var entry = CatalogEntry(
            source: .kapeli, name: name, title: name, versions: versions, revision: feedEntry.revision ?? "0",
            archives: archives, feedURL: feedURL, specificVersions: older)
        // As Zeal's catalogue lists the docset it builds from this feed: its `urls`, no `feed_url`.
        entry.listedURLs = archives
        return entry
    }

    /// `…/<Name>.tgz` → `…/zzz/versions/<Name>/<V>/<Name>.tgz`; nil when the URL is not in Kapeli's layout.
    static func versioned(version: String, name: String) -> (String) -> String? {
        { url in
            let file = "/\(CatalogMirrors.segment(name)).tgz"
            guard url.hasSuffix(file) else { return nil }
            let n = CatalogMirrors.segment(name)
            return "\(url.dropLast(file.count))/zzz/versions/\(n)/\(CatalogMirrors.segment(version))/\(n).tgz"
        }
    }
}
