internal import DocSyncDownload
internal import DocSyncSupport

/// Counts the bytes a run's downloads received and the bytes they resumed from earlier runs (for the summary and
/// metrics). Reached through a task-local, so every download of one run adds to that run's tally.
final class TransferTally: @unchecked Sendable {
    @TaskLocal static var current: TransferTally?

    private let lock = ConditionLock()
    private var downloaded: Int64 = 0
    private var resumed: Int64 = 0

    /// Adds a finished download.
    static func record(_ result: DownloadResult) {
        guard let tally = current else { return }
        tally.lock.withLock {
            tally.downloaded += max(0, result.bytes - result.resumedFrom)
            tally.resumed += result.resumedFrom
        }
    }

    var totals: (downloaded: Int64, resumed: Int64) { lock.withLock { (downloaded, resumed) } }
}
