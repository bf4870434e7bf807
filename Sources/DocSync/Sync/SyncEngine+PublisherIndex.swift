internal import DocSyncDownload
internal import DocSyncInstall

extension SyncEngine {
    /// The tarix layout: the publisher's index for `candidate`'s archive, downloaded into staging with the download
    /// rules (resumed, checked, never followed through a link), or nil when none is offered or the fetch failed —
    /// then the installer builds its own index; a missing or broken index never fails the sync. Offered means:
    /// Kapeli's convention for a feed's archive (`<archive URL>.tarix`, a gzip'd tar holding `tarixIndex.db`), or a
    /// catalogue entry marked `"tarix": true` (an entry without the flag is not asked). The installer unpacks it and
    /// checks it against the archive in full before trusting it (`InstallRequest.tarixIndex`).
    func fetchPublisherIndex(_ candidate: DocsetCandidate, key: String, limiter: HostLimiter) async -> String? {
        if let catalog = candidate.catalog, catalog.tarix != true { return nil }
        let mirrors = candidate.archives.filter { !$0.contains("?") && !$0.contains("#") }.map { $0 + ".tarix" }
        guard !mirrors.isEmpty else { return nil }
        let indexKey = "\(key).tarix"
        let path = "\(configuration.staging)/complete/\(StagingName.forKey(indexKey)).archive"
        let host = HostLimiter.host(of: mirrors[0])
        await limiter.acquire(host)
        let result = try? await downloader(connections: 1).download(
            DownloadRequest(key: indexKey, mirrors: mirrors, destination: path))
        await limiter.release(host)
        guard let result else {
            discardStagedArchive(path)
            return nil
        }
        TransferTally.record(result)
        return path
    }
}
