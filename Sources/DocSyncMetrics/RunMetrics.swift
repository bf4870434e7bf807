/// What one sync run exposes to Prometheus (node_exporter's textfile collector), as plain values.
public struct RunMetrics: Sendable, Equatable {
    /// `ok`, `failed`, `interrupted` or `error`.
    public static let results = ["ok", "failed", "interrupted", "error"]

    /// Unix time of the end of the last run that succeeded (nil: never).
    public var lastSuccess: Double?
    /// Unix time this run ended.
    public var finished: Double
    public var durationSeconds: Double
    /// One of `results`.
    public var result: String
    public var installed: Int
    public var updated: Int
    public var unchanged: Int
    public var removed: Int
    public var failed: Int
    public var feedsFailed: Int
    /// Archive bytes received from servers in this run.
    public var bytesDownloaded: Int64
    /// Bytes kept from earlier interrupted downloads (not fetched again).
    public var bytesResumed: Int64

    public init(
        lastSuccess: Double?, finished: Double, durationSeconds: Double, result: String, installed: Int = 0,
        updated: Int = 0, unchanged: Int = 0, removed: Int = 0, failed: Int = 0, feedsFailed: Int = 0,
        bytesDownloaded: Int64 = 0, bytesResumed: Int64 = 0
    ) {
        self.lastSuccess = lastSuccess
        self.finished = finished
        self.durationSeconds = durationSeconds
        self.result = result
        self.installed = installed
        self.updated = updated
        self.unchanged = unchanged
        self.removed = removed
        self.failed = failed
        self.feedsFailed = feedsFailed
        self.bytesDownloaded = bytesDownloaded
        self.bytesResumed = bytesResumed
    }
}
