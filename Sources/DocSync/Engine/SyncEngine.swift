internal import DocSyncDownload
internal import DocSyncFeed
package import DocSyncHTTP
internal import DocSyncInstall
internal import DocSyncSupport
import Foundation

/// The docsync service as a library: refresh feeds, plan, download and install, report events. The CLI's `sync`,
/// `status`, `remove` and `daemon`, and an indexing backend that links `DocSync`, all go through this type.
///
/// ```swift
/// let engine = SyncEngine(configuration: try DocSyncConfigurationLoader().load(file: path))  // DocSyncConfigFile
/// for try await event in engine.sync() {
///     if case .installed(let docset) = event { index(docset.indexPath) }
/// }
/// ```
public struct SyncEngine: Sendable {
    /// The configuration every operation of this engine uses.
    public let configuration: DocSyncConfiguration

    /// Told how each sync run ended (metrics, monitoring); see ``SyncRunObserver``.
    public let runObservers: [any SyncRunObserver]

    /// An engine for `configuration`; creating it does no I/O. Numbers outside their documented ranges are clamped
    /// into them (counts as the configuration file allows, durations 0...3650 days, sizes 0...1 PiB).
    /// `runObservers` are told how each sync run ended (the CLI passes the `[metrics] textfile` writer).
    public init(configuration: DocSyncConfiguration, runObservers: [any SyncRunObserver] = []) {
        self.init(configuration: configuration, transport: .curl, runObservers: runObservers)
    }

    /// How every request of this engine reaches the network — feeds, catalogues and archives alike: libcurl, or
    /// what a caller (a test) passed in.
    package let transport: HTTPTransport

    /// An engine whose feed, catalogue and archive requests all go through `transport`.
    package init(
        configuration: DocSyncConfiguration, transport: HTTPTransport, runObservers: [any SyncRunObserver] = []
    ) {
        self.configuration = configuration.bounded
        self.transport = transport
        self.runObservers = runObservers
    }

    /// Docsets in the root, each with the resolved path of its current version (stable while you read it) and its
    /// search keywords (``InstalledDocset/keywords``).
    /// Throws a ``SyncFailure`` when the root cannot be read.
    public func installedDocsets() throws(SyncFailure) -> [InstalledDocset] {
        do {
            return installedDocsets(from: try installer.installedDocsets())
        } catch {
            throw SyncFailure(error)
        }
    }

    /// ``installedDocsets()`` from the installer's records, with their keywords.
    func installedDocsets(from records: [InstallRecord]) -> [InstalledDocset] {
        records.map { record in
            var docset = InstalledDocset(record)
            docset.keywords = DocsetKeywords.read(
                docsetPath: docset.path, configured: configuration.configuredKeywords(for: docset.name))
            return docset
        }
    }

    /// Downloads interrupted earlier, resumed by the next sync.
    package func partialDownloads() -> [PartialDownload] { PartialDownload.list(in: configuration.staging) }

    /// Removes `<root>/<name>.docset` atomically (readers holding the old version keep it for the grace period);
    /// `NAME@VERSION` removes that version of a docset kept side by side (``resolvedName(_:)``).
    /// Waits for a running sync. Throws a ``SyncFailure``: ``SyncFailure/Code/notInstalled`` when there is no such
    /// docset (the message names the installed ones and the nearest), ``SyncFailure/Code/locked`` when the sync
    /// exclusion cannot be taken, else what the removal ran into (``SyncFailure/Code/io``, …).
    public func remove(name address: String) async throws(SyncFailure) {
        let name = try resolvedName(address)
        let lock: SyncExclusion
        do {
            lock = try await SyncExclusion.acquire(stateDirectory: configuration.state, wait: true)
        } catch {
            throw SyncFailure(code: .locked, message: "\(error)")
        }
        defer { withExtendedLifetime(lock) {} }
        if let known = try? installer.installedDocsets().map(\.name),
            let unknown = UnknownDocsetError.check(requested: [name], known: known)
        {
            // Typed as not_installed, with the names there are and the nearest one (exit 64).
            throw SyncFailure(code: .notInstalled, message: unknown.description)
        }
        do {
            try await installer.remove(name: name)
        } catch {
            throw SyncFailure(error)
        }
        removeUnusedIndexes()  // its derived search index goes at once, not at the next sync
    }

    /// Runs one sync. The sequence ends after `.summary`, or throws a ``SyncError`` when the run could not start
    /// (``SyncError/busy``: another sync is running; ``SyncError/preflight``: a folder cannot be used;
    /// ``SyncError/unknownDocset``: ``SyncOptions/only`` names nothing known; …). Per-docset and per-feed failures
    /// are events, never thrown: one bad feed or archive never stops the others. Cancelling the consuming task
    /// checkpoints downloads in flight.
    public func sync(_ options: SyncOptions = SyncOptions()) -> SyncEvents {
        let (stream, continuation) = AsyncThrowingStream<SyncEvent, any Error>.makeStream()
        let task = Task {
            do {
                // Every event leaves without credentials (README, Security).
                try await run(options) { continuation.yield($0.redactingCredentials) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: SyncError(error))
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return SyncEvents(base: stream, run: task)
    }

    var installer: Installer {
        Installer(
            root: configuration.root,
            configuration: InstallConfiguration(
                gracePeriod: configuration.install.gracePeriod, replaceForeign: configuration.install.replaceForeign,
                changesKeep: configuration.changes.keep))
    }

    /// The downloader for archives: staging, transport options and the configured retry count.
    var downloader: Downloader { downloader(connections: configuration.network.connections) }

    /// The archive downloader with `connections` transfers per download (1: the single-connection path).
    func downloader(connections: Int) -> Downloader {
        var download = configuration.archiveDownload(
            staging: configuration.staging, http: httpOptions, connections: connections,
            perHost: configuration.network.perHost)
        download.rejectsPages = true  // archives: a mirror's HTML page or empty body is a soft 404
        download.minFreeSpace = configuration.install.minFreeSpace
        download.transport = transport
        return Downloader(configuration: download)
    }

    /// The configuration's `[network]` transport options (fetch's too).
    var httpOptions: HTTPOptions { configuration.httpOptions }

    private func run(_ options: SyncOptions, emit: @escaping @Sendable (SyncEvent) -> Void) async throws {
        let started = ContinuousClock.now
        try Preflight.check(configuration)  // before any network work: once, naming key and path
        let lock = try await SyncExclusion.acquire(stateDirectory: configuration.state, wait: options.wait)
        defer { withExtendedLifetime(lock) {} }
        let record = RunRecord.starting(after: RunRecord.load(stateDirectory: configuration.state))
        if !options.dryRun { record.save(stateDirectory: configuration.state) }  // an interrupted run stays visible
        let tally = TransferTally()
        do {
            let summary = try await TransferTally.$current.withValue(tally) {
                try await runLocked(options, started: started, emit: emit)
            }
            let outcome: RunRecord.Outcome = Task.isCancelled ? .interrupted : summary.isSuccess ? .ok : .failed
            if !options.dryRun { finish(record.finished(outcome), summary: summary) }
        } catch {
            if !options.dryRun {
                let outcome: RunRecord.Outcome = Task.isCancelled ? .interrupted : .error
                var summary = SyncSummary()
                (summary.bytesDownloaded, summary.bytesResumed) = tally.totals
                finish(record.finished(outcome, detail: UserText.describe(error)), summary: summary)
            }
            throw error
        }
    }

    private func runLocked(
        _ options: SyncOptions, started: ContinuousClock.Instant, emit: @escaping @Sendable (SyncEvent) -> Void
    ) async throws -> SyncSummary {
        var summary = SyncSummary()
        if !options.dryRun { await collectLeftovers(plan: nil) }  // what a killed run left

        // 1. Feeds: fresh copies cost nothing, the rest are conditional GETs; a failed feed is an event.
        let feeds = options.lock == nil ? await refreshFeeds(refresh: options.refresh, emit: emit) : SourceRound()
        let catalog = await resolveDocsets(refresh: options.refresh, lock: options.lock, emit: emit)  // [[docset]]
        summary.feedsFailed = feeds.failures + catalog.failures

        // 2. Plan against what is installed (read once: the housekeeping below reuses it when nothing changed).
        let records: [InstallRecord]
        do {
            records = try installer.installedDocsets()
        } catch {
            throw SyncFailure(error)
        }
        let installed = records.map(InstalledDocset.init)
        var plan = Planner.plan(
            offers: feeds.offers + catalog.offers, skipped: feeds.skipped + catalog.skipped,
            failedFeeds: feeds.failed.union(catalog.failed), installed: installed,
            prune: configuration.prune)
        if !options.only.isEmpty {
            let known = plan.actions.map(\.name) + installed.map(\.name)
            if let unknown = UnknownDocsetError.check(requested: options.only, known: known) { throw unknown }
            plan.actions = plan.actions.filter { options.only.contains($0.name) }
        }
        if options.repair { plan = await repairing(plan) }
        // A damaged install the plan leaves alone is reported (and counted as failed), never "unchanged".
        let damaged = options.repair ? [:] : await damagedEssentials(plan)
        emit(.planned(plan.actions.map(PlannedAction.init)))

        // 3. Act.
        if !options.dryRun {
            summary = await execute(plan, damaged: damaged, summary: summary, emit: emit)
            await collectLeftovers(plan: plan)
            // A run that installed, updated, removed or failed nothing left the root as the plan read it. The
            // housekeeping below needs names and paths only: no keywords (each an Info.plist and meta.json read).
            let unchanged = summary.installed + summary.updated + summary.removed + summary.failed == 0
            let after = (unchanged ? records : try? installer.installedDocsets())?.map(InstalledDocset.init)
            removeUnusedIndexes(installed: after)
            if options.repair { await removeDamagedTextIndexes() }
            await buildTextIndexes(installed: options.repair ? nil : after, emit: emit)  // after every flip
            summary.failed += await publishMirrorAfterSync(emit: emit)  // [mirror]: no-op without it
        }
        summary.seconds = ((ContinuousClock.now - started) / .milliseconds(1)).rounded() / 1000
        if let totals = TransferTally.current?.totals {
            (summary.bytesDownloaded, summary.bytesResumed) = totals
        }
        if !options.dryRun {
            try? SyncRecord(finishedAt: Date(), feeds: feeds.results + catalog.results, summary: summary)
                .save(stateDirectory: configuration.state, durable: false)  // made durable by `finish`
        }
        emit(.summary(summary))
        return summary
    }

    private func execute(
        _ plan: SyncPlan, damaged: [String: [String]], summary start: SyncSummary,
        emit: @escaping @Sendable (SyncEvent) -> Void
    ) async -> SyncSummary {
        var summary = start
        var work: [SyncPlan.Action] = []
        for action in plan.actions {
            switch action {
            case .install, .update: work.append(action)
            case .unchanged(let candidate, _):
                if let problems = damaged[candidate.name] {
                    summary.failed += 1
                    let message =
                        "the installed version is damaged (\(problems.prefix(5).joined(separator: ", "))"
                        + "\(problems.count > 5 ? ", …" : "")); a sync with repair on reinstalls it"
                    emit(.failed(name: candidate.name, failure: SyncFailure(code: .damaged, message: message)))
                    continue
                }
                summary.unchanged += 1
                emit(.unchanged(name: candidate.name, version: candidate.version.description))
            case .skipped(let name, _, let reason):
                summary.failed += 1
                emit(.skipped(name: name, reason: reason))
            case .orphan(let docset, let prune):
                guard prune else {
                    emit(.orphaned(name: docset.name))
                    continue
                }
                do {
                    try await installer.remove(name: docset.name)
                    summary.removed += 1
                    emit(.removed(name: docset.name))
                } catch {
                    summary.failed += 1
                    var failure = SyncFailure(error)
                    failure.message = "remove: \(failure.message)"
                    emit(.failed(name: docset.name, failure: failure))
                }
            }
        }
        let limiter = HostLimiter(limit: configuration.network.perHost)
        let alternates = AlternateBook(stateDirectory: configuration.state)  // per-host health, learned across runs
        let actions = work
        let outcomes = await Self.boundedMap(actions.indices, width: configuration.network.concurrency) { index in
            await self.fetchAndInstall(actions[index], limiter: limiter, alternates: alternates, emit: emit)
        }
        alternates.save(durable: false)  // made durable with the run's records (`finish`)
        for outcome in outcomes {
            switch outcome {
            case .some(true): summary.installed += 1
            case .some(false): summary.updated += 1
            case .none: summary.failed += 1
            }
        }
        return summary
    }

    /// true: installed, false: updated, nil: failed (reported).
    private func fetchAndInstall(
        _ action: SyncPlan.Action, limiter: HostLimiter, alternates: AlternateBook,
        emit: @escaping @Sendable (SyncEvent) -> Void
    ) async -> Bool? {
        var candidate: DocsetCandidate
        let previous: InstalledDocset?
        switch action {
        case .install(let c): (candidate, previous) = (c, nil)
        case .update(let c, let from): (candidate, previous) = (c, from)
        default: return nil
        }
        candidate.archives = alternates.order(candidate, preferringOwnCopy: true)
        let started = ContinuousClock.now
        let name = candidate.name
        let key = "\(candidate.identifier ?? name)@\(candidate.version)"
        let host = HostLimiter.host(of: candidate.archives[0])
        let archive = "\(configuration.staging)/complete/\(StagingName.forKey(key)).archive"
        var request = candidate.request  // the docset's facts as planned, the archives in this host's order
        request.apply(catalog: candidate.catalog)
        request.layout = configuration.install.layout(of: name)
        var publisherIndex: String?
        defer { if let publisherIndex { discardStagedArchive(publisherIndex) } }
        // The derived search index is built from the staged tree while it is published (see DerivedIndexAhead).
        let indexAhead = DerivedIndexAhead(stateDirectory: configuration.state)
        do {
            try installer.checkReplaceable(name: name)  // a folder docsync did not create: reported, left alone
            try checkArchiveLength(candidate)
            if request.layout == .tarix {  // `<url>.tarix`: a missing or bad one means docsync builds its own
                publisherIndex = await fetchPublisherIndex(candidate, key: key, limiter: limiter)
                request.tarixIndex = publisherIndex
            }
            let docset: InstallRecord
            if configuration.install.streaming {
                docset = try await streamAndInstall(
                    key: key, archive: archive, candidate: candidate, request: request, limiter: limiter,
                    whenPrepared: indexAhead.start, emit: emit)
            } else {
                await limiter.acquire(host)
                let downloaded: DownloadResult
                do {
                    downloaded = try await downloader(for: candidate).download(
                        DownloadRequest(
                            key: key, alternates: candidate.archives, destination: archive,
                            expectedSHA256: candidate.sha256)
                    ) { progress in
                        emit(
                            .progress(
                                DocsetProgress(
                                    name: name, phase: .downloading, bytes: progress.bytes, total: progress.total,
                                    rate: progress.rate)))
                    }
                    TransferTally.record(downloaded)
                    await limiter.release(host)
                } catch {
                    await limiter.release(host)
                    throw error
                }
                Self.alternateFaultEvents(name, downloaded.alternateFaults).forEach(emit)
                if let warning = Self.plainHTTPWarning(candidate, downloaded) { emit(warning) }
                request.sourceURL = downloaded.url
                request.archiveSHA256 = downloaded.sha256
                docset = try await installer.install(archive: archive, as: request, whenPrepared: indexAhead.start)
            }
            alternates.recordSuccess(of: candidate, from: docset.sourceURL, archive: archive, since: started)
            retainForMirror(archive: archive, docset: docset, urls: candidate.archives)  // [mirror]: keep it
            discardStagedArchive(archive)
            let report = InstalledDocset(docset)
            if let previous {
                emit(.updated(report, from: previous.plannedVersion.description))
            } else {
                emit(.installed(report))
            }
            await indexAhead.finished()
            await buildIndex(for: report, emit: emit)
            if let command = configuration.postInstallHook,
                let failure = await PostInstallHook(command: command, timeout: configuration.postInstallTimeout)
                    .run(for: report)
            {
                emit(.hookFailed(name: name, failure: failure.syncFailure))
                return nil  // installed, but a failed docset: the run reports it and exits 3
            }
            return previous == nil
        } catch {
            await indexAhead.finished()
            // A verified archive that would not install is not kept: the next sync fetches it again.
            alternates.recordFailure(of: candidate, error)
            discardStagedArchive(archive)
            if let error = error as? DownloadError { Self.alternateFaultEvents(name, error.alternateFaults).forEach(emit) }
            var failure = SyncFailure(error, url: candidate.archives.first)
            let described = describe(error)  // names the config key at play, if any: "… ([install] min_free_space)"
            if described.hasPrefix("\(error)") { failure.message += described.dropFirst("\(error)".count) }
            emit(.failed(name: name, failure: failure))
            return nil
        }
    }

    /// Runs `transform` on every index with at most `width` at once; results in index order.
    static func boundedMap<T: Sendable>(
        _ indices: Range<Int>, width: Int, _ transform: @escaping @Sendable (Int) async -> T
    ) async -> [T] {
        await withTaskGroup(of: (Int, T).self) { group in
            var pending = indices.makeIterator()
            for _ in 0..<max(1, width) {
                guard let index = pending.next() else { break }
                group.addTask { (index, await transform(index)) }
            }
            var results: [(Int, T)] = []
            results.reserveCapacity(indices.count)
            while let finished = await group.next() {
                results.append(finished)
                if let index = pending.next() { group.addTask { (index, await transform(index)) } }
            }
            return results.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }
}
