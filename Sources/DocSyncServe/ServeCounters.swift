import DocSync
import DocSyncSupport
import Synchronization

/// The server's request counts, durations and queue refusals since it started (``ServeStats``), recorded on
/// every answer under one short lock (flat arrays, no allocation) and read by the metrics writer.
final class ServeCounters: Sendable {
    /// A request's route, as counted.
    enum Route: Int, CaseIterable {
        case pages, search, api, searchPage, other

        /// The route of a request path.
        init(path: Substring) {
            if path.hasPrefix("/d/") {
                self = .pages
            } else if path == "/api/search" || path == "/api/text" {
                self = .search
            } else if path.hasPrefix("/api/") || path.hasPrefix("/icon/") {
                self = .api
            } else if path == "/" {
                self = .searchPage
            } else {
                self = .other
            }
        }

        /// Its label in ``ServeStats/routes``.
        var label: String { ServeStats.routes[rawValue] }
    }

    private struct Totals {
        var requests = [Int](repeating: 0, count: Route.allCases.count * 4)
        var buckets = [Int](repeating: 0, count: ServeStats.durationBounds.count)
        var sum = 0.0
        var count = 0
    }

    private let totals = Mutex(Totals())

    /// Counts one answer.
    func record(_ route: Route, status: Int, duration: Duration) {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
        let statusClass = min(3, max(0, status / 100 - 2))
        let bucket = ServeStats.durationBounds.firstIndex { seconds <= $0 }
        totals.withLock { totals in
            totals.requests[route.rawValue * 4 + statusClass] += 1
            if let bucket { totals.buckets[bucket] += 1 }
            totals.sum += seconds
            totals.count += 1
        }
    }

    /// The totals, with the queues' refusals and the page cache's counts.
    func stats(reads: BlockingPool, searches: BlockingPool, cache: PageCache) -> ServeStats {
        let now = totals.withLock { $0 }
        var stats = ServeStats()
        for route in Route.allCases {
            for (k, statusClass) in ServeStats.statusClasses.enumerated() {
                stats.requests[route.label, default: [:]][statusClass] = now.requests[route.rawValue * 4 + k]
            }
        }
        var cumulative = 0
        for (k, count) in now.buckets.enumerated() {
            cumulative += count
            stats.durationBuckets[k] = cumulative
        }
        stats.durationSum = now.sum
        stats.durationCount = now.count
        stats.rejected = ["reads": reads.rejected, "searches": searches.rejected]
        let (hits, misses) = cache.hitsAndMisses
        stats.pageCacheHits = hits
        stats.pageCacheMisses = misses
        stats.pageCacheBytes = cache.bytes
        return stats
    }
}
