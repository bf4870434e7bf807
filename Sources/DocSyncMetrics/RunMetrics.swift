/// What one sync run exposes to Prometheus (node_exporter's textfile collector), as plain values.
public struct RunMetrics: Sendable, Equatable {
    /// `ok`, `failed`, `interrupted` or `error`.
    public static let results = ["ok", "failed", "interrupted", "error"]

    /// Unix time of the end of the last run that succeeded (nil: never).
    public var lastSuccess: Double?
    /// Unix time this run ended.
    public var finished: Double
    /// How long this run took, in seconds.
    public var durationSeconds: Double
    /// One of `results`.
    public var result: String
    /// Docsets installed for the first time.
    public var installed: Int
    /// Docsets replaced by a new version.
    public var updated: Int
    /// Docsets already current.
    public var unchanged: Int
    /// Docsets removed (pruning).
    public var removed: Int
    /// Docsets that failed or were skipped.
    public var failed: Int
    /// Feeds that could not be fetched or parsed.
    public var feedsFailed: Int
    /// Archive bytes received from servers in this run.
    public var bytesDownloaded: Int64
    /// Bytes kept from earlier interrupted downloads (not fetched again).
    public var bytesResumed: Int64

    /// Metrics of one run; counts default to 0.
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
