package import DocSyncFeed
internal import DocSyncSupport

/// Turns one parsed feed and its configuration into what it offers: per docset, the newest version (or the pinned
/// one), with its archive mirrors in feed order. Pure.
///
/// - Dash feeds offer one docset, named by the configuration's `name`, else the feed's file name.
/// - Atom feeds offer one docset per `docset:identifier` (several entries may share one: the newest version wins,
///   and for equal versions the newest `updated`), named by the configuration's `name` when the feed offers exactly
///   one docset, else by the entry title made safe.
package enum CandidateSelector {
    package static func select(_ document: FeedDocument, source: DocSyncConfiguration.FeedSource)
        -> (offers: [DocsetCandidate], skipped: [SyncPlan.Action])
    {
        let selected =
            switch document.format {
            case .dash: selectDash(document, source: source)
            case .atom: selectAtom(document, source: source)
            }
        return refusingUnsafeText(selected, source: source)
    }

    private static func selectDash(_ document: FeedDocument, source: DocSyncConfiguration.FeedSource)
        -> (offers: [DocsetCandidate], skipped: [SyncPlan.Action])
    {
        let name = DocsetName.safe(source.name ?? document.name ?? document.title ?? "docset")
        guard let entry = document.entries.first else {
            return ([], [.skipped(name: name, feed: source.location, reason: "the feed has no entry")])
        }
        let version = DocsetVersion(version: entry.version ?? "", revision: entry.revision ?? "")
        if let pin = source.version, DocsetVersion(dash: pin) != version {
            let reason = "pinned version \(pin) is not offered (the feed offers \(version))"
            return ([], [.skipped(name: name, feed: source.location, reason: reason)])
        }
        guard !entry.archives.isEmpty else {
            return ([], [.skipped(name: name, feed: source.location, reason: "the feed lists no archive URL")])
        }
        var candidate = DocsetCandidate(
            name: name, title: entry.title ?? document.name ?? name, version: version, updated: entry.updated,
            archives: entry.archives.map(\.url), sha256: entry.sha256, length: entry.archives.first?.length,
            feed: source.location, pinned: source.version != nil)
        candidate.zeal = ZealArrival(kind: .dashFeed, feedURL: source.location, urls: candidate.archives)
        return ([candidate], [])
    }

    private static func selectAtom(_ document: FeedDocument, source: DocSyncConfiguration.FeedSource)
        -> (offers: [DocsetCandidate], skipped: [SyncPlan.Action])
    {
        var groups: [String: [FeedEntry]] = [:]
        var order: [String] = []
        for entry in document.entries {
            guard let identifier = entry.identifier, !entry.archives.isEmpty else { continue }
            if let wanted = source.identifier, wanted != identifier { continue }
            if groups[identifier] == nil { order.append(identifier) }
            groups[identifier, default: []].append(entry)
        }
        let label = source.name ?? source.identifier ?? document.title ?? source.location
        if order.isEmpty {
            let reason =
                source.identifier.map { "the feed has no entry with docset:identifier \($0) and an enclosure" }
                ?? "the feed has no entry with a docset:identifier and an enclosure"
            return ([], [.skipped(name: DocsetName.safe(label), feed: source.location, reason: reason)])
        }
        if source.name != nil, order.count > 1 {
            let reason = "`name` is set but the feed offers \(order.count) docsets; add `identifier` to pick one"
            return ([], [.skipped(name: DocsetName.safe(label), feed: source.location, reason: reason)])
        }
        var offers: [DocsetCandidate] = []
        var skipped: [SyncPlan.Action] = []
        for identifier in order {
            var entries = groups[identifier]!
            let name = DocsetName.safe(source.name ?? entries.last?.title ?? identifier)
            if let pin = source.version {
                entries = entries.filter { version(of: $0) == DocsetVersion(dash: pin) }
                if entries.isEmpty {
                    let reason = "pinned version \(pin) of \(identifier) is not offered"
                    skipped.append(.skipped(name: name, feed: source.location, reason: reason))
                    continue
                }
            }
            let newest = entries.max { a, b in
                let (va, vb) = (version(of: a), version(of: b))
                if va != vb { return va < vb }
                return (a.updated ?? .distantPast) < (b.updated ?? .distantPast)
            }!
            var candidate = DocsetCandidate(
                name: DocsetName.safe(source.name ?? newest.title ?? identifier), identifier: identifier,
                title: newest.title ?? identifier, version: version(of: newest), updated: newest.updated,
                archives: newest.archives.map(\.url), sha256: newest.sha256, length: newest.archives.first?.length,
                feed: source.location, pinned: source.version != nil)
            candidate.zeal = ZealArrival(kind: .atomFeed)
            offers.append(candidate)
        }
        return (offers, skipped)
    }

    private static func version(of entry: FeedEntry) -> DocsetVersion {
        DocsetVersion(version: entry.version ?? "", revision: entry.revision ?? "")
    }
}
