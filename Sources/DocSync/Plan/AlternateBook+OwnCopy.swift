import Foundation

extension AlternateBook {
    /// The learned order, adjusted by `OwnCopyPreference` (a docsync mirror's own copy stays first).
    func order(_ candidate: DocsetCandidate, preferringOwnCopy: Bool) -> [String] {
        if candidate.keepsOrder { return orderKeepingSequence(candidate.archives) }
        let split = min(candidate.configuredAlternates, candidate.archives.count)
        let learned =
            split == 0
            ? order(candidate.archives)
            : order(Array(candidate.archives[..<split])) + order(Array(candidate.archives[split...]))
        guard preferringOwnCopy, let own = candidate.archives.first else { return learned }
        return OwnCopyPreference.order(
            learned: learned, candidate: candidate, ownHealth: health(of: HostLimiter.host(of: own)))
    }
}

/// A feed that states the archive's SHA-256 and serves its first archive from its own host (what `docsync mirror`
/// publishes) is a fleet's mirror: its copy stays first while that host is not failing, so learned ordering never
/// "explores" the upstream fallbacks ahead of it (which would send every client back to the origin). Pure.
enum OwnCopyPreference {
    static func order(
        learned: [String], candidate: DocsetCandidate, ownHealth: HostHealth?, now: Date = Date(),
        forgiveAfter: TimeInterval = 86_400
    ) -> [String] {
        guard candidate.sha256 != nil, let own = candidate.archives.first, candidate.feed.contains("://"),
            HostLimiter.host(of: own) == HostLimiter.host(of: candidate.feed),
            let index = learned.firstIndex(of: own)
        else { return learned }
        let recentFailure = ownHealth?.lastFailure.map { now.timeIntervalSince($0) < forgiveAfter } ?? false
        if (ownHealth?.consecutiveFailures ?? 0) > 0, recentFailure { return learned }
        var result = learned
        result.remove(at: index)
        result.insert(own, at: 0)
        return result
    }
}
