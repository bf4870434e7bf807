import Foundation

/// What a sync reports as it goes: the CLI prints these, `--json` writes one per line, and an indexing backend
/// reacts to `installed` / `updated` / `removed`.
public enum SyncEvent: Sendable, Equatable {
    case feedChecked(feed: String, source: FeedRefresher.Source, docsets: Int)
    case feedFailed(feed: String, reason: String)
    /// The feed was read, but something in it was dropped (an unreadable date).
    case feedWarning(feed: String, message: String)
    case planned(SyncPlan)
    case progress(DocsetProgress)
    /// A docset that was not installed before is now.
    case installed(DocsetReport)
    /// A new version replaced the installed one.
    case updated(DocsetReport, from: String)
    case unchanged(name: String, version: String)
    case removed(name: String)
    /// Installed by docsync, offered by no feed, kept because pruning is off.
    case orphaned(name: String)
    case skipped(name: String, reason: String)
    case failed(name: String, reason: String)
    /// The post-install hook failed (exit status, signal or timeout, and its last standard error lines); the
    /// docset itself is installed, and counts as failed in the summary.
    case hookFailed(HookFailure)
    /// Something worked but deserves attention, e.g. a docset installed over plain http without a checksum.
    case warning(name: String, message: String)
    case summary(SyncSummary)
}

/// An installed docset as an indexing backend needs it.
public struct DocsetReport: Sendable, Equatable, Codable {
    public var name: String
    public var version: String
    public var identifier: String?
    /// The resolved folder of this version: stays valid and unchanged while a reader uses it.
    public var path: String
    /// `path/Contents/Resources/docSet.dsidx`.
    public var indexPath: String
}

public struct DocsetProgress: Sendable, Equatable, Codable {
    public enum Phase: String, Sendable, Codable { case downloading, installing }
    public var name: String
    public var phase: Phase
    public var bytes: Int64
    public var total: Int64?
    /// Bytes per second.
    public var rate: Double
}

public struct SyncSummary: Sendable, Equatable, Codable {
    public var installed = 0
    public var updated = 0
    public var unchanged = 0
    public var removed = 0
    public var failed = 0
    public var feedsFailed = 0
    public var seconds: Double = 0
    /// Archive bytes received from servers.
    public var bytesDownloaded: Int64 = 0
    /// Bytes of earlier interrupted downloads that were kept, not fetched again.
    public var bytesResumed: Int64 = 0

    public init() {}

    public var isSuccess: Bool { failed == 0 && feedsFailed == 0 }
}
