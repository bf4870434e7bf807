internal import DocSyncCatalog
internal import DocSyncFeed
import Foundation

extension SyncEngine {
    /// What the `[[docset]]` selections contribute to a sync.
    struct CatalogRound: Sendable {
        var offers: [DocsetCandidate] = []
        var skipped: [SyncPlan.Action] = []
        /// Feeds whose installed docsets must not be pruned this time (a catalogue could not be read).
        var failed: Set<String> = []
        var results: [SyncRecord.FeedResult] = []
        var failures = 0
    }

    /// The catalogues of this configuration, read through the same cache as feeds.
    package var catalogLoader: CatalogLoader {
        CatalogLoader(
            catalogs: configuration.catalogs,
            refresher: FeedRefresher(store: FeedCacheStore(stateDirectory: configuration.state), options: httpOptions))
    }

    /// Loads the catalogues (only those some selection can use) and resolves every `[[docset]]` into a candidate
    /// or a skip. Nothing is fetched when there is no `[[docset]]`.
    /// With a lock (`sync --locked`), the lock's entries instead, and no catalogue is read.
    func resolveDocsets(refresh: Bool, lock: LockFile? = nil, emit: @escaping @Sendable (SyncEvent) -> Void) async
        -> CatalogRound
    {
        if let lock { return lockedRound(lock) }
        var round = CatalogRound()
        let selections = configuration.docsets
        guard !selections.isEmpty else { return round }
        let loader = catalogLoader
        let needed: Set<CatalogSource> =
            selections.contains { $0.source == nil }
            ? Set(CatalogSource.lookupOrder) : Set(selections.compactMap(\.source))
        let loaded = await loader.load(needed.subtracting([.kapeli]), refresh: refresh)
        for fetched in loaded.fetched {
            emit(.feedChecked(feed: fetched.location, source: fetched.source, docsets: fetched.entries))
            round.results.append(.init(feed: fetched.location, ok: true, detail: fetched.source.rawValue))
        }
        for failure in loaded.failures {
            emit(.feedFailed(feed: failure.location, failure: failure.failure))
            round.results.append(.init(feed: failure.location, ok: false, detail: failure.reason))
        }
        let kapeli = await kapeliEntries(for: selections.filter { $0.source == .kapeli }, refresh: refresh, emit: emit)
        for (location, reason) in kapeli.failures {
            round.results.append(.init(feed: location, ok: false, detail: reason))
        }
        round.failures = loaded.failures.count + kapeli.failures.count
        let selected = CatalogSelector.select(
            selections, catalogs: loaded.catalogs, unavailable: Set(loaded.failures.map(\.source)),
            kapeli: kapeli.entries, alternates: loader.alternates)
        round.offers = selected.offers
        round.skipped = selected.skipped
        if round.failures > 0 {
            // A docset installed from a catalogue that could not be read is neither offered nor orphaned.
            let configured = Set(configuration.feeds.map(\.location))
            let installed = (try? installer.installedDocsets()) ?? []
            round.failed = Set(installed.compactMap(\.feedURL)).subtracting(configured)
        }
        return round
    }

    /// Kapeli's own feeds (`<base>/<Name>.xml`) for `source = "kapeli"` selections, as catalogue entries.
    private func kapeliEntries(
        for selections: [DocSyncConfiguration.DocsetSelection], refresh: Bool, emit: @escaping @Sendable (SyncEvent) -> Void
    ) async -> (entries: [String: CatalogEntry], failures: [(String, String)]) {
        guard !selections.isEmpty, let base = configuration.catalogs.kapeliBase else {
            return ([:], selections.isEmpty ? [] : [("catalog.kapeli", "base_url is empty")])
        }
        let fetcher = catalogLoader.refresher
        let alternates = catalogLoader.alternates
        let results = await Self.boundedMap(selections.indices, width: 8) { index -> Result<CatalogEntry, any Error> in
            let name = selections[index].name
            let url = base.hasPrefix("http") ? KapeliFeeds.feedURL(name, base: base) : "\(base)/\(name).xml"
            do {
                let fetched = try await fetcher.fetch(url, refresh: refresh)
                let document = try FeedParser.parse(
                    bytes: fetched.bytes,
                    documentURL: url.contains("://") ? url : URL(fileURLWithPath: url).absoluteString)
                emit(.feedChecked(feed: url, source: fetched.source, docsets: 1))
                guard let entry = KapeliFeeds.entry(from: document, name: name, feedURL: url, alternates: alternates) else {
                    throw CatalogError.unexpectedShape(url, detail: "the feed has no entry")
                }
                return .success(entry)
            } catch {
                var reason = "\(error)"
                if reason.hasPrefix("\(url): ") { reason.removeFirst(url.count + 2) }
                emit(.feedFailed(feed: url, failure: SyncFailure(error, url: url)))
                return .failure(CatalogError.unexpectedShape(url, detail: reason))
            }
        }
        var entries: [String: CatalogEntry] = [:]
        var failures: [(String, String)] = []
        for (index, result) in results.enumerated() {
            switch result {
            case .success(let entry): entries[selections[index].name] = entry
            case .failure(let error): failures.append((selections[index].name, "\(error)"))
            }
        }
        return (entries, failures)
    }
}
