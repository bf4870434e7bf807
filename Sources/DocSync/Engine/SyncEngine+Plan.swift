// What the engine plans from: the feeds (conditional GETs through the feed cache), catalogues (`[[docset]]`), the
// `docsync.lock` pin file (a locked round, `docsync lock`), and the installed state the plan is made against.

internal import DocSyncCatalog
internal import DocSyncFeed
internal import DocSyncInstall
internal import DocSyncSupport
import Foundation

extension SyncEngine {
    /// What one kind of source — the feeds, the catalogues (`[[docset]]`) or the lock — contributes to a sync.
    struct SourceRound: Sendable {
        var offers: [DocsetCandidate] = []
        var skipped: [SyncPlan.Action] = []
        /// Feeds whose installed docsets must not be pruned this time (a feed or catalogue could not be read).
        var failed: Set<String> = []
        /// Each feed's or catalogue's result, for the sync record.
        var results: [SyncRecord.FeedResult] = []
        /// Feeds or catalogues that could not be read.
        var failures = 0
    }

    /// Fetches every feed (eight at a time; fresh cached copies cost nothing) and selects its candidates. A failed
    /// feed is an event and a `failed` entry, never thrown.
    func refreshFeeds(refresh: Bool, emit: @escaping @Sendable (SyncEvent) -> Void) async -> SourceRound {
        let fetcher = FeedRefresher(
            store: FeedCacheStore(stateDirectory: configuration.state), options: feedHTTPOptions, transport: transport)
        let feeds = configuration.feeds
        let results = await Self.boundedMap(feeds.indices, width: 8) {
            index -> Result<(source: FeedRefresh, document: FeedDocument), any Error> in
            do {
                let location = feeds[index].location
                return .success(
                    try await fetcher.fetchDocument(location, refresh: refresh, documentURL: documentURL(location)))
            } catch {
                return .failure(error)
            }
        }
        var round = SourceRound()
        for (index, result) in results.enumerated() {
            let source = feeds[index]
            do {
                let (refreshed, document) = try result.get()
                for warning in document.warnings { emit(.feedWarning(feed: source.location, message: warning)) }
                let selection = CandidateSelector.select(document, source: source)
                round.offers += selection.offers
                round.skipped += selection.skipped
                emit(.feedChecked(feed: source.location, source: refreshed, docsets: selection.offers.count))
                round.results.append(.init(feed: source.location, ok: true, detail: refreshed.rawValue))
            } catch {
                round.failed.insert(source.location)
                round.failures += 1
                let failure = SyncFailure(error, url: source.location)
                emit(.feedFailed(feed: source.location, failure: failure))
                round.results.append(.init(feed: source.location, ok: false, detail: failure.message))
            }
        }
        return round
    }

    private func documentURL(_ location: String) -> String {
        location.contains("://") ? location : URL(fileURLWithPath: location).absoluteString
    }
}

extension SyncEngine {
    /// The catalogues of this configuration, read through the same cache as feeds.
    package var catalogLoader: CatalogLoader {
        CatalogLoader(
            catalogs: configuration.catalogs,
            refresher: FeedRefresher(
                store: FeedCacheStore(stateDirectory: configuration.state), options: httpOptions, transport: transport))
    }

    /// Loads the catalogues (only those some selection can use) and resolves every `[[docset]]` into a candidate
    /// or a skip. Nothing is fetched when there is no `[[docset]]`.
    /// With a lock (`sync --locked`), the lock's entries instead, and no catalogue is read.
    func resolveDocsets(refresh: Bool, lock: LockFile? = nil, emit: @escaping @Sendable (SyncEvent) -> Void) async
        -> SourceRound
    {
        if let lock { return lockedRound(lock) }
        var round = SourceRound()
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

extension SyncEngine {
    /// The lock for what is installed now: every docset docsync installed (with its archive's checksum), and the
    /// names it had to leave out (installed by another tool, or adopted and not updated yet).
    package func makeLock() throws -> (lock: LockFile, skipped: [String]) {
        var entries: [LockFile.Entry] = []
        var skipped: [String] = []
        let records: [InstallRecord]
        do { records = try installer.installedDocsets() } catch { throw SyncFailure(error) }
        for docset in records {
            let folder = try? SafeDirectory.open(docset.path)
            func read(_ name: String, limit: Int) -> Data? {
                (try? folder?.readFile(name, limit: limit)).flatMap { $0 }.map { Data($0) }
            }
            let metaData = read("meta.json", limit: 1 << 20)
            let meta = metaData.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
            let record = (meta?["extra"] as? [String: Any])?["docsync"] as? [String: Any]
            let size = (record?["archive_size"] as? NSNumber)?.int64Value ?? 0
            var archives = docset.urls
            if let used = docset.sourceURL {
                archives.removeAll { $0 == used }
                archives.insert(used, at: 0)
            }
            guard let sha256 = docset.archiveSHA256, size > 0, !archives.isEmpty else {
                skipped.append(docset.name)
                continue
            }
            var entry = LockFile.Entry(
                name: docset.name, title: docset.title, version: docset.version ?? "", revision: docset.revision,
                archives: archives, sha256: sha256, size: size, feed: docset.feedURL)
            entry.zeal = docset.zeal
            entry.icon = read("icon.png", limit: 4 << 20)?.base64EncodedString()
            entry.icon2x = read("icon@2x.png", limit: 4 << 20)?.base64EncodedString()
            if let data = metaData,
                case .object(var members)? = (try? JSONDecoder().decode(JSONValue.self, from: data))?.object?["extra"]
            {
                members["docsync"] = nil
                entry.extra = members.isEmpty ? nil : .object(members)
            }
            entries.append(entry)
        }
        return (LockFile(docsets: entries), skipped)
    }

    /// `sync --locked`: the lock's entries are the only offers (checksums enforced, pinned), nothing is pruned, and
    /// drift — a selected docset missing from the lock, or the same version installed from a different archive —
    /// fails that docset.
    func lockedRound(_ lock: LockFile) -> SourceRound {
        var round = SourceRound()
        let installed = (try? installer.installedDocsets()) ?? []
        let locked = Set(lock.docsets.map { $0.name.lowercased() })
        let credentials = LockCredentials(configured: configuredURLs)
        for entry in lock.docsets {
            let version = DocsetVersion(version: entry.version, revision: entry.revision ?? "")
            if let current = installed.first(where: { $0.name == entry.name }),
                DocsetVersion(version: current.version ?? "", revision: current.revision ?? "") == version,
                let sha = current.archiveSHA256, sha != entry.sha256
            {
                let reason =
                    "drift: \(entry.version) is installed from archive \(sha.prefix(12))…, "
                    + "docsync.lock says \(entry.sha256.prefix(12))…"
                round.skipped.append(.skipped(name: entry.name, feed: LockFile.fileName, reason: reason))
                continue
            }
            // The lock's URLs are redacted; the credentials come from the configuration, never `***` requested.
            let archives = entry.archives.compactMap(credentials.restore)
            guard !archives.isEmpty else {
                let reason =
                    "docsync.lock's archive URLs need credentials the configuration does not give "
                    + "(\(entry.archives[0])): configure a feed, catalogue or mirror URL on that host with them"
                round.skipped.append(.skipped(name: entry.name, feed: LockFile.fileName, reason: reason))
                continue
            }
            var candidate = DocsetCandidate(
                name: entry.name, title: entry.title ?? entry.name, version: version, archives: archives,
                sha256: entry.sha256, length: entry.size, feed: entry.feed ?? LockFile.fileName, pinned: true)
            candidate.catalog = CatalogEntry(
                source: .zeal, name: entry.name, title: entry.title, icon: entry.icon, icon2x: entry.icon2x,
                extra: entry.extra)
            candidate.zeal = entry.zeal ?? ZealArrival(kind: .catalog)  // a lock from before `zeal`: no feed_url
            candidate.keepsOrder = true
            round.offers.append(candidate)
        }
        for selection in configuration.docsets where !locked.contains(DocsetName.safe(selection.name).lowercased()) {
            round.skipped.append(
                .skipped(
                    name: DocsetName.safe(selection.name), feed: LockFile.fileName,
                    reason: "drift: selected in the config but not in docsync.lock (run `docsync lock`)"))
        }
        round.failed = Set(installed.compactMap(\.feedURL))  // a locked sync never prunes
        return round
    }

    /// Every URL the configuration names (feeds, catalogues, catalogue mirrors, the fleet mirror's base), with their
    /// credentials: where `sync --locked` takes them from.
    var configuredURLs: [String] {
        let catalogs = configuration.catalogs
        let single = [catalogs.zeal, catalogs.kapeliBase, catalogs.contrib, catalogs.cheatsheets]
        return configuration.feeds.map(\.location) + catalogs.alternates
            + (single + [configuration.mirror?.baseURL]).compactMap { $0 }
    }
}
