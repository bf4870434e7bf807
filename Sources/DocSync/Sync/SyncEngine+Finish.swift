internal import DocSyncMetrics
import Foundation

extension SyncEngine {
    /// Records how a run ended (`last-run.json`) and, with `[metrics] textfile`, rewrites the Prometheus file.
    func finish(_ record: RunRecord, summary: SyncSummary) {
        record.save(stateDirectory: configuration.state)
        guard let path = configuration.metricsTextFile else { return }
        let finished = record.finishedAt ?? Date()
        let metrics = RunMetrics(
            lastSuccess: (record.outcome == .ok ? finished : record.lastSuccessAt)?.timeIntervalSince1970,
            finished: finished.timeIntervalSince1970,
            durationSeconds: finished.timeIntervalSince(record.startedAt),
            result: record.outcome?.rawValue ?? "error", installed: summary.installed, updated: summary.updated,
            unchanged: summary.unchanged, removed: summary.removed, failed: summary.failed,
            feedsFailed: summary.feedsFailed, bytesDownloaded: summary.bytesDownloaded,
            bytesResumed: summary.bytesResumed)
        // Preflight checked the folder; a write that still fails must not fail the sync it reports on.
        try? MetricsTextFile.write(metrics, to: path)
    }
}
