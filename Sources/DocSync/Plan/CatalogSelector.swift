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
            let name = DocsetName.safe(entry.name)
            guard let pinned = CatalogResolver.archives(of: entry, version: selection.version, alternates: alternates) else {
                let offered = entry.versions.isEmpty ? "none" : entry.versions.prefix(8).joined(separator: ", ")
                let source = entry.source.rawValue
                let reason =
                    selection.version.map { "version \($0) is not offered by \(source) (offered: \(offered))" }
                    ?? "\(source) lists no archive for it"
                skipped.append(.skipped(name: name, feed: entry.feedURL ?? origin, reason: reason))
                continue
            }
            let revision = selection.version == nil && entry.revision != "0" ? entry.revision : ""
            var candidate = DocsetCandidate(
                name: name, title: entry.title, version: DocsetVersion(version: pinned.version, revision: revision),
                archives: pinned.archives, sha256: pinned.archives == entry.archives ? entry.sha256 : nil,
                length: selection.version == nil ? entry.size : nil,
                feed: entry.feedURL ?? "catalog:\(entry.source.rawValue)/\(entry.name)",
                pinned: selection.version != nil)
            candidate.catalog = entry
            candidate.configuredAlternates = pinned.archives.prefix { url in
                alternates.bases.contains { url.hasPrefix("\($0)/") }
            }.count
            candidate.zeal = ZealArrival(kind: .catalog, feedURL: entry.listedFeedURL, urls: entry.listedURLs)
            offers.append(candidate)
        }
        return (offers, skipped)
    }
}
