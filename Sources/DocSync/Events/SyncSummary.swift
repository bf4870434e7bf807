/// The counts of one sync run (``SyncEvent/summary(_:)``, the last event).
public struct SyncSummary: Sendable, Equatable, Codable {
    /// Docsets installed for the first time.
    public var installed = 0
    /// Docsets replaced by a new version.
    public var updated = 0
    /// Docsets already current.
    public var unchanged = 0
    /// Docsets removed (pruning).
    public var removed = 0
    /// Docsets that failed or were skipped.
    public var failed = 0
    /// Feeds that could not be fetched or parsed.
    public var feedsFailed = 0
    /// Wall time of the run, in seconds (millisecond precision).
    public var seconds: Double = 0
    /// Archive bytes received from servers (for metrics; not in the JSON object).
    public var bytesDownloaded: Int64 = 0
    /// Bytes of earlier interrupted downloads that were kept, not fetched again (for metrics; not in the JSON
    /// object).
    public var bytesResumed: Int64 = 0

    /// An empty summary.
    public init() {}

    /// True when no docset and no feed failed (the CLI exits 0).
    public var isSuccess: Bool { failed == 0 && feedsFailed == 0 }

    enum CodingKeys: String, CodingKey {
        case installed, updated, unchanged, removed, failed, seconds
        case feedsFailed = "feeds_failed"
    }
}
