// The engine's downloads: streaming installs (extract while downloading), transport options and the download
// configuration, segmented transfers (own-copy preference), staging paths.

internal import DocSyncDownload
internal import DocSyncHTTP
internal import DocSyncInstall
internal import DocSyncSupport
import Foundation

extension SyncEngine {
    /// Downloads and installs at once: the installer extracts from the partial file as it grows (never past the
    /// durable commit) and publishes only after the download is complete and verified and the archive's end was read
    /// cleanly. A truncated partial (the server's bytes changed) restarts the extraction from byte 0 into a fresh
    /// staging tree; a failure on either side stops the other and leaves the installed version as it was.
    func streamAndInstall(
        key: String, archive: String, candidate: DocsetCandidate, request: InstallRequest, limiter: HostLimiter,
        whenPrepared: (@Sendable (PreparedVersion) -> Void)? = nil, emit: @escaping @Sendable (SyncEvent) -> Void
    ) async throws -> InstallRecord {
        let name = candidate.name
        let source = GrowingFileSource(
            partPath: "\(configuration.staging)/\(StagingName.forKey(key)).part", finalPath: archive
        ) { bytes, total in
            emit(.progress(DocsetProgress(name: name, phase: .installing, bytes: bytes, total: total, rate: 0)))
        }
        let downloadRequest = DownloadRequest(
            key: key, alternates: candidate.archives, destination: archive, expectedSHA256: candidate.sha256,
            committed: { source.commit($0) })
        let downloader = self.downloader(for: candidate)
        let installer = self.installer
        let host = HostLimiter.host(of: candidate.archives[0])

        return try await withThrowingTaskGroup(of: InstallRecord?.self) { group in
            group.addTask {
                await limiter.acquire(host)
                do {
                    let result = try await downloader.download(downloadRequest) { progress in
                        emit(
                            .progress(
                                DocsetProgress(
                                    name: name, phase: .downloading, bytes: progress.bytes, total: progress.total,
                                    rate: progress.rate)))
                    }
                    SyncEngine.alternateFaultEvents(name, result.alternateFaults).forEach(emit)
                    if let warning = SyncEngine.plainHTTPWarning(candidate, result) { emit(warning) }
                    TransferTally.record(result)
                    source.finish(length: result.bytes, sourceURL: result.url, sha256: result.sha256)
                    await limiter.release(host)
                } catch {
                    await limiter.release(host)
                    source.fail("\(error)")
                    throw error
                }
                return nil
            }
            group.addTask {
                while true {
                    do {
                        return try await installer.install(source: source, as: request, whenPrepared: whenPrepared)
                    } catch  where source.restartPending {
                        source.rewind()  // the partial was truncated: extract the new bytes from byte 0
                    }
                }
            }
            var installed: InstallRecord?
            var downloadError: (any Error)?
            var installError: (any Error)?
            while let result = await group.nextResult() {
                switch result {
                case .success(let value): if let value { installed = value }
                case .failure(let error):
                    if error is DownloadError {
                        downloadError = downloadError ?? error
                    } else {
                        installError = installError ?? error
                    }
                    // Either side failing stops the other: cancel the transfer, wake a blocked reader.
                    source.cancel()
                    group.cancelAll()
                }
            }
            // Published means verified (the installer publishes only after the download's verified end): report
            // what is on disk, never "failed" for a version that is in place.
            if let installed { return installed }
            // The side that failed first is the cause; the other only stopped because of it.
            if case .downloadFailed = source.stopReason, let downloadError { throw downloadError }
            if let installError { throw installError }
            throw downloadError ?? CancellationError()
        }
    }
}

extension SyncEngine {
    /// The transport options of feed requests: the archives' options plus the total budget of one feed fetch.
    var feedHTTPOptions: HTTPOptions {
        var options = httpOptions
        options.totalTimeout = max(1, Int(configuration.network.feedTimeout.components.seconds))
        return options
    }
}

extension SyncEngine {
    /// A feed that declares an archive longer than `[install] max_archive_size` is refused before downloading.
    func checkArchiveLength(_ candidate: DocsetCandidate) throws(DownloadError) {
        let limit = configuration.install.maxArchiveSize
        guard limit > 0, let length = candidate.length, length > limit else { return }
        throw DownloadError(
            .tooLarge, url: candidate.archives.first,
            reason: "the feed gives the archive's length as \(length) bytes, above the limit of \(limit) bytes",
            isTransient: false)
    }

    /// A failure's message, with the configuration key that bounds it when there is one.
    func describe(_ error: any Error) -> String {
        guard let error = error as? DownloadError else { return UserText.describe(error) }
        let hint = configuration.hint(for: error)
        return UserText.describe(error) + (hint.map { " (\($0))" } ?? "")
    }
}

extension SyncEngine {
    /// An archive that came (partly) over plain http and that no checksum from the feed vouches for: installed, but
    /// reported, since anyone on the path could have changed it.
    /// One `mirror-fault` event per mirror the download excluded (on success, or in the error it threw).
    static func alternateFaultEvents(_ name: String, _ faults: [AlternateFault]) -> [SyncEvent] {
        faults.map {
            .alternateFault(name: name, url: $0.url, reason: $0.reason.description, message: $0.message)
        }
    }

    static func plainHTTPWarning(_ candidate: DocsetCandidate, _ result: DownloadResult) -> SyncEvent? {
        guard result.overPlainHTTP, candidate.sha256 == nil else { return nil }
        return .warning(
            name: candidate.name,
            message: "installed over plain http without a checksum (https failed or was not tried: \(result.url)); "
                + "set [network] require_https = true to refuse plain http")
    }
}

extension SyncEngine {
    /// The archive downloader for one candidate: `[network] connections` transfers, except for a docsync mirror's
    /// own copy with upstream fallbacks (`OwnCopyPreference.hasUpstreamFallbacks`), fetched over one connection so
    /// segments never spread to those fallbacks (which would send a fleet's clients back to the origin).
    func downloader(for candidate: DocsetCandidate) -> Downloader {
        let single = OwnCopyPreference.hasUpstreamFallbacks(candidate) || Self.hasForeignFallbacks(candidate)
        let connections = single ? 1 : configuration.network.connections
        return downloader(connections: connections)
    }
}

extension SyncEngine {
    /// A catalogue archive whose `[catalog] mirrors` URLs come first and whose catalogue or feed URLs after them are
    /// on other hosts: fetched over one connection, so segments never spread to hosts the configuration did not name
    /// (a host told to use a campus mirror reaches the public ones only when every configured mirror failed). Pure.
    static func hasForeignFallbacks(_ candidate: DocsetCandidate) -> Bool {
        let split = min(candidate.configuredAlternates, candidate.archives.count)
        guard split > 0 else { return false }
        let configured = Set(candidate.archives[..<split].map(HostLimiter.host(of:)))
        return candidate.archives[split...].contains { !configured.contains(HostLimiter.host(of: $0)) }
    }
}

extension OwnCopyPreference {
    /// The feed states the archive's SHA-256 and serves one of its archives from its own host (what `docsync mirror`
    /// publishes; the test `order` applies) and lists archives on other hosts too: fallbacks a segmented download
    /// would spread ranges to. A publisher's own single URL is not: it still splits. Pure.
    static func hasUpstreamFallbacks(_ candidate: DocsetCandidate) -> Bool {
        guard candidate.sha256 != nil, candidate.feed.contains("://") else { return false }
        let feedHost = HostLimiter.host(of: candidate.feed)
        return candidate.archives.contains { HostLimiter.host(of: $0) == feedHost }
            && candidate.archives.contains { HostLimiter.host(of: $0) != feedHost }
    }
}

extension SyncEngine {
    /// Deletes a finished archive in `<staging>/complete/` — reached without following links; a symlink planted
    /// there is left alone (and was never written through: the downloader refuses it).
    func discardStagedArchive(_ path: String) {
        guard let staging = try? SafeDirectory.open(configuration.staging),
            let complete = try? staging.existingDirectory("complete"), path.hasPrefix(complete.path + "/")
        else { return }
        try? complete.unlink(String(path.dropFirst(complete.path.count + 1)))
    }
}

extension SyncEngine {
    /// The tarix layout: the publisher's index for `candidate`'s archive, downloaded into staging with the download
    /// rules (resumed, checked, never followed through a link), or nil when none is offered or the fetch failed —
    /// then the installer builds its own index; a missing or broken index never fails the sync. Offered means:
    /// Kapeli's convention for a feed's archive (`<archive URL>.tarix`, a gzip'd tar holding `tarixIndex.db`), or a
    /// catalogue entry marked `"tarix": true` (an entry without the flag is not asked). The installer unpacks it and
    /// checks it against the archive in full before trusting it (`InstallRequest.tarixIndex`).
    func fetchPublisherIndex(_ candidate: DocsetCandidate, key: String, limiter: HostLimiter) async -> String? {
        if let catalog = candidate.catalog, catalog.tarix != true { return nil }
        let alternates = candidate.archives.filter { !$0.contains("?") && !$0.contains("#") }.map { $0 + ".tarix" }
        guard !alternates.isEmpty else { return nil }
        let indexKey = "\(key).tarix"
        let path = "\(configuration.staging)/complete/\(StagingName.forKey(indexKey)).archive"
        let host = HostLimiter.host(of: alternates[0])
        await limiter.acquire(host)
        let result = try? await downloader(connections: 1).download(
            DownloadRequest(key: indexKey, alternates: alternates, destination: path))
        await limiter.release(host)
        guard let result else {
            discardStagedArchive(path)
            return nil
        }
        TransferTally.record(result)
        return path
    }
}
