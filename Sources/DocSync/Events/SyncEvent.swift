/// What a sync reports as it goes: the CLI prints these, `sync --json` writes one per line (``jsonLine()``), and an
/// indexing backend reacts to ``installed(_:)`` / ``updated(_:from:)`` / ``removed(name:)``.
///
/// Every event is `Codable` as one flat JSON object whose `event` member names the case (`feed-checked`,
/// `installed`, …) and whose `schema` is ``DocSyncJSON/schema``; <doc:JSONObjects> lists each object's members.
public enum SyncEvent: Sendable, Equatable {
    /// A feed was read; `docsets` is how many docsets it offers (`feed-checked`).
    case feedChecked(feed: String, source: FeedRefresh, docsets: Int)
    /// A feed could not be fetched or parsed; its docsets are left as they are (`feed-failed`).
    case feedFailed(feed: String, failure: SyncFailure)
    /// The feed was read, but something in it was dropped, e.g. an unreadable date (`feed-warning`).
    case feedWarning(feed: String, message: String)
    /// What the sync is about to do, one line per docset (`plan`).
    case planned([PlannedAction])
    /// Bytes downloaded or unpacked so far for one docset (`progress`).
    case progress(DocsetProgress)
    /// A docset that was not installed before is now (`installed`).
    case installed(InstalledDocset)
    /// A new version replaced the installed version `from` (`updated`).
    case updated(InstalledDocset, from: String)
    /// Installed and current (`unchanged`).
    case unchanged(name: String, version: String)
    /// Removed because no feed offers it any more and `prune` is on (`removed`).
    case removed(name: String)
    /// Installed by docsync, offered by no feed, kept because pruning is off (`orphaned`).
    case orphaned(name: String)
    /// Offered by a feed but not plannable, e.g. a pinned version the feed does not have (`skipped`).
    case skipped(name: String, reason: String)
    /// Downloading, verifying, installing or removing this docset failed; the installed version is unchanged
    /// (`failed`).
    case failed(name: String, failure: SyncFailure)
    /// The post-install hook failed (exit status, signal or timeout, and its last standard error lines in the
    /// failure); the docset itself is installed, and counts as failed in the summary (`hook-failed`).
    case hookFailed(name: String, failure: SyncFailure)
    /// Something worked but deserves attention, e.g. a docset installed over plain http without a checksum
    /// (`warning`).
    case warning(name: String, message: String)
    /// The derived search index of an installed or updated docset is ready (`DocsetIndex`), with its entry count.
    case indexed(name: String, version: String, entries: Int)
    /// The docset is installed, but its search index could not be built (its `docSet.dsidx` is unreadable).
    case indexFailed(name: String, reason: String)
    /// A mirror was excluded from this docset's download and why: `url` (credentials redacted), `reason` (a
    /// snake_case code such as `html_page`, `different_file`, `tls`) and `message` (`mirror-fault`). Its bytes never
    /// reached the archive; the download went on from the other mirrors.
    case alternateFault(name: String, url: String, reason: String, message: String)
    /// The last event of a run: the counts (`summary`).
    case summary(SyncSummary)
}
