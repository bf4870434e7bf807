internal import DocSyncDownload
internal import DocSyncSupport
import Synchronization

/// Counts the bytes a run's downloads received and the bytes they resumed from earlier runs (for the summary and
/// metrics). Reached through a task-local, so every download of one run adds to that run's tally.
final class TransferTally: Sendable {
    @TaskLocal static var current: TransferTally?

    private let counts = Mutex<(downloaded: Int64, resumed: Int64)>((0, 0))

    /// Adds a finished download.
    static func record(_ result: DownloadResult) {
        guard let tally = current else { return }
        tally.counts.withLock {
            $0.downloaded += max(0, result.bytes - result.resumedFrom)
            $0.resumed += result.resumedFrom
        }
    }

    var totals: (downloaded: Int64, resumed: Int64) { counts.withLock { $0 } }
}
