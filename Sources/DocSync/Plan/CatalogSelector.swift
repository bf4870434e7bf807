package import DocSyncCatalog
internal import DocSyncSupport

/// Turns `[[docset]]` selections into what the catalogues offer for them. Pure: the planner then treats these
/// candidates exactly like a feed's.
package enum CatalogSelector {
    /// - Parameters:
    ///   - catalogs: loaded catalogues, in lookup order.
    ///   - unavailable: catalogues that could not be loaded this time (a miss may be their fault: no suggestion).
    ///   - kapeli: entries read from Kapeli's per-docset feeds, for `source = "kapeli"` selections, by name.
    package static func select(
        _ selections: [DocSyncConfiguration.DocsetSelection], catalogs: [Catalog], unavailable: Set<CatalogSource> = [],
        kapeli: [String: CatalogEntry] = [:], alternates: CatalogAlternates
    ) -> (offers: [DocsetCandidate], skipped: [SyncPlan.Action]) {
        let resolver = CatalogResolver(catalogs: catalogs)
        var offers: [DocsetCandidate] = []
        var skipped: [SyncPlan.Action] = []
        for selection in selections {
            let label = DocsetName.safe(selection.name)
            let origin = "catalogue (\(selection.source?.rawValue ?? "any"))"
            let entry: CatalogEntry
            if selection.source == .kapeli {
                guard let found = kapeli[selection.name] else {
                    skipped.append(.skipped(name: label, feed: origin, reason: "Kapeli's feed could not be read"))
                    continue
                }
                entry = found
            } else {
                switch resolver.resolve(selection.name, source: selection.source) {
                case .found(let found): entry = found
                case .missing(let suggestions):
                    let searched = selection.source.map { [$0] } ?? CatalogSource.lookupOrder
                    var reason = "not in the catalogues"
                    if !unavailable.isDisjoint(with: searched) {
                        let names = unavailable.intersection(searched).map(\.rawValue).sorted()
                        reason = "not found; catalogue \(names.joined(separator: ", ")) could not be read"
                    } else if !suggestions.isEmpty {
                        reason += "; did you mean \(suggestions.map { "\"\($0)\"" }.joined(separator: " or "))?"
                    }
                    skipped.append(.skipped(name: label, feed: origin, reason: reason))
                    continue
                }
            }
            for target in targets(selection, entry: entry) {
                let side = target.version.flatMap { Self.published(entry, version: $0, in: catalogs) }
                let version = side == nil ? target.version : nil
                switch offer(side ?? entry, version: version, alternates: alternates, origin: origin) {
                case .success(var candidate):
                    candidate.name = target.name
                    candidate.title = target.title
                    candidate.pinned = target.version != nil
                    offers.append(candidate)
                case .failure(let skip):
                    skipped.append(.skipped(name: target.name, feed: skip.feed, reason: skip.reason))
                }
            }
        }
        return (offers, skipped)
    }

    /// The docsets one selection installs: `name` at `version` (nil: the latest), or with `versions`, one per
    /// version kept side by side — the newest (`latest` counts as newest) as the catalogue's name, each other as
    /// `NAME@VERSION` titled `TITLE VERSION` (``DocsetAddress``).
    static func targets(_ selection: DocSyncConfiguration.DocsetSelection, entry: CatalogEntry)
        -> [(name: String, title: String, version: String?)]
    {
        let name = DocsetName.safe(entry.name)
        guard !selection.versions.isEmpty else { return [(name, entry.title, selection.version)] }
        // A title that already ends with the latest version (a fleet mirror's catalogue lists its kept titles): bare.
        var base = entry.title
        if let latest = entry.latestVersion, base.hasSuffix(" \(latest)") { base.removeLast(latest.count + 1) }
        let ordered = selection.versions.sorted { a, b in
            a == "latest" ? b != "latest" : b != "latest" && DocsetVersion(dash: a) > DocsetVersion(dash: b)
        }
        return ordered.enumerated().map { position, version in
            let pinned = version == "latest" ? nil : version
            let shown = pinned ?? entry.versions.first ?? "latest"
            return (
                position == 0 ? name : DocsetAddress.sideName(name, version: DocsetName.safe(shown)),
                "\(base) \(shown)", pinned
            )
        }
    }

    /// The entry `NAME@VERSION` of `entry`'s catalogue, when it lists one with an archive at that version: how a
    /// docsync fleet mirror publishes each version kept side by side (its own archive, checksum and size), which a
    /// fleet member's `versions` then install from the mirror.
    static func published(_ entry: CatalogEntry, version: String, in catalogs: [Catalog]) -> CatalogEntry? {
        let wanted = DocsetAddress.sideName(entry.name, version: version).lowercased()
        let pinned = DocsetVersion(dash: version)
        return catalogs.first { $0.source == entry.source }?.entries.first { side in
            side.name.lowercased() == wanted && !side.archives.isEmpty
                && side.latestVersion.map { DocsetVersion(dash: $0) == pinned } == true
        }
    }

    /// Why a version is not offered, and by which feed.
    struct Skip: Error {
        var feed: String
        var reason: String
    }

    /// The candidate for `entry` at `version` (nil: the latest), or why it cannot be installed.
    static func offer(_ entry: CatalogEntry, version: String?, alternates: CatalogAlternates, origin: String)
        -> Result<DocsetCandidate, Skip>
    {
        guard let pinned = CatalogResolver.archives(of: entry, version: version, alternates: alternates) else {
            let offered = entry.versions.isEmpty ? "none" : entry.versions.prefix(8).joined(separator: ", ")
            let source = entry.source.rawValue
            let reason =
                version.map { "version \($0) is not offered by \(source) (offered: \(offered))" }
                ?? "\(source) lists no archive for it"
            return .failure(Skip(feed: entry.feedURL ?? origin, reason: reason))
        }
        let revision = version == nil && entry.revision != "0" ? entry.revision : ""
        var candidate = DocsetCandidate(
            name: DocsetName.safe(entry.name), title: entry.title,
            version: DocsetVersion(version: pinned.version, revision: revision),
            archives: pinned.archives, sha256: pinned.archives == entry.archives ? entry.sha256 : nil,
            length: version == nil ? entry.size : nil,
            feed: entry.feedURL ?? "catalog:\(entry.source.rawValue)/\(entry.name)",
            pinned: version != nil)
        candidate.catalog = entry
        candidate.configuredAlternates = pinned.archives.prefix { url in
            alternates.bases.contains { url.hasPrefix("\($0)/") }
        }.count
        candidate.zeal = ZealArrival(kind: .catalog, feedURL: entry.listedFeedURL, urls: entry.listedURLs)
        return .success(candidate)
    }
}
