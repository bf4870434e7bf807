internal import DocSyncDownload

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
