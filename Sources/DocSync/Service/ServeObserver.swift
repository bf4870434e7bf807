/// Told what `docsync serve` has counted since it started, every few seconds and once more at shutdown: the seam
/// through which the `[metrics] textfile` writer (`DocSyncMetrics`) gets the server's metrics without `DocSync` or
/// the server linking swift-prometheus (as ``SyncRunObserver`` does for sync runs). Keep it quick; it must not
/// throw.
package protocol ServeObserver: Sendable {
    /// The server's totals since it started.
    func serveStatsUpdated(_ stats: ServeStats)
}

/// What `docsync serve` counted since it started: totals (Prometheus counters), never reset while it runs.
package struct ServeStats: Sendable, Equatable {
    /// The upper bounds of the request duration buckets, in seconds (`+Inf` is ``durationCount``).
    package static let durationBounds: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10]
    /// The routes requests are counted by.
    package static let routes = ["pages", "search", "api", "search_page", "other"]
    /// The status classes requests are counted by.
    package static let statusClasses = ["2xx", "3xx", "4xx", "5xx"]

    /// Requests answered, by route and status class (`requests[route]![class]`), every pair present.
    package var requests: [String: [String: Int]]
    /// Requests that took at most each of ``durationBounds`` (cumulative, as a Prometheus histogram).
    package var durationBuckets: [Int]
    /// The seconds all requests took together.
    package var durationSum: Double
    /// Requests timed.
    package var durationCount: Int
    /// Requests refused with 503 because a queue was full, by queue (`reads`, `searches`).
    package var rejected: [String: Int]
    /// Tarix pages answered from the server's cache of inflated pages, and not.
    package var pageCacheHits: Int
    /// Tarix pages inflated because the cache did not have them.
    package var pageCacheMisses: Int
    /// The bytes the page cache holds now.
    package var pageCacheBytes: Int

    /// All zero.
    package init() {
        requests = Dictionary(
            uniqueKeysWithValues: Self.routes.map { route in
                (route, Dictionary(uniqueKeysWithValues: Self.statusClasses.map { ($0, 0) }))
            })
        durationBuckets = Array(repeating: 0, count: Self.durationBounds.count)
        durationSum = 0
        durationCount = 0
        rejected = ["reads": 0, "searches": 0]
        pageCacheHits = 0
        pageCacheMisses = 0
        pageCacheBytes = 0
    }

}
