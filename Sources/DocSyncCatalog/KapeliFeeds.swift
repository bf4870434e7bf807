import DocSyncFeed

/// Kapeli's official feeds: one Dash feed per docset at `<base>/<Name>.xml`, its `<url>`s the mirrors of the latest
/// archive, `<other-versions>` the older versions (a `.`-prefixed one completed with the name's suffix). Pure.
package enum KapeliFeeds {
    package static let defaultBase = "https://kapeli.com/feeds"

    package static func feedURL(_ name: String, base: String = defaultBase) -> String {
        let trimmed = base.hasSuffix("/") ? String(base.dropLast()) : base
        return "\(trimmed)/\(CatalogAlternates.segment(name)).xml"
    }

    /// The feed as a catalogue entry: versions newest first (latest, then `other-versions` completed, deduplicated),
    /// archives the URLs derived from `mirrors` (`[catalog] mirrors`, like every catalogue source) then the feed's
    /// own `<url>`s, each older version's archives derived the same way
    /// (`…/feeds/<Name>.tgz` → `…/feeds/zzz/versions/<Name>/<V>/<Name>.tgz`).
    /// Nil `mirrors`: the feed's URLs only.
    package static func entry(
        from document: FeedDocument, name: String, feedURL: String, alternates: CatalogAlternates? = nil
    ) -> CatalogEntry? {
        guard let feedEntry = document.entries.first else { return nil }
        let latest = feedEntry.version.map { KapeliVersion.complete($0, feedName: name) }
        var versions = latest.map { [$0] } ?? []
        for other in feedEntry.otherVersions {
            let version = KapeliVersion.complete(other, feedName: name)
            if !version.isEmpty, !versions.contains(version) { versions.append(version) }
        }
        let listed = feedEntry.archives.map(\.url)
        let archives = merged(alternates?.docset(name) ?? [], listed)
        let older = versions.dropFirst().map { version in
            CatalogEntry.SpecificVersion(
                version: version,
                archives: merged(
                    alternates?.docset(name, version: version) ?? [],
                    listed.compactMap(versioned(version: version, name: name))))
        }
        var entry = CatalogEntry(
            source: .kapeli, name: name, title: name, versions: versions, revision: feedEntry.revision ?? "0",
            archives: archives, feedURL: feedURL, specificVersions: older)
        // As Zeal's catalogue lists the docset it builds from this feed: its `urls`, no `feed_url`.
        entry.listedURLs = listed
        return entry
    }

    /// `first`, then those of `then` not already in it.
    static func merged(_ first: [String], _ then: [String]) -> [String] {
        var result = first
        for url in then where !result.contains(url) { result.append(url) }
        return result
    }

    /// `…/<Name>.tgz` → `…/zzz/versions/<Name>/<V>/<Name>.tgz`; nil when the URL is not in Kapeli's layout.
    static func versioned(version: String, name: String) -> (String) -> String? {
        { url in
            let file = "/\(CatalogAlternates.segment(name)).tgz"
            guard url.hasSuffix(file) else { return nil }
            let n = CatalogAlternates.segment(name)
            return "\(url.dropLast(file.count))/zzz/versions/\(n)/\(CatalogAlternates.segment(version))/\(n).tgz"
        }
    }
}
