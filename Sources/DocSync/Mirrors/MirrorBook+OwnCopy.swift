import Foundation

extension MirrorBook {
    /// The learned order, except that a docsync mirror's own copy stays first while its host is not failing: a feed
    /// that states the archive's SHA-256 and serves the first archive from its own host (what `docsync mirror`
    /// publishes) is the fleet's mirror, and its upstream fallbacks must not be "explored" ahead of it.
    func order(_ candidate: DocsetCandidate, preferringOwnCopy: Bool) -> [String] {
        let learned = order(candidate.archives)
        guard preferringOwnCopy, candidate.sha256 != nil, let own = candidate.archives.first,
            candidate.feed.contains("://"), HostLimiter.host(of: own) == HostLimiter.host(of: candidate.feed),
            let index = learned.firstIndex(of: own)
        else { return learned }
        let health = health(of: HostLimiter.host(of: own))
        let recentFailure = health?.lastFailure.map { Date().timeIntervalSince($0) < 86_400 } ?? false
        if (health?.consecutiveFailures ?? 0) > 0, recentFailure { return learned }
        var result = learned
        result.remove(at: index)
        result.insert(own, at: 0)
        return result
    }
}
