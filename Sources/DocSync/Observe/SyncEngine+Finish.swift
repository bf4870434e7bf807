import Foundation

extension SyncEngine {
    /// Records how a run ended (`last-run.json`), then tells the ``SyncRunObserver``s (metrics, …).
    func finish(_ record: RunRecord, summary: SyncSummary) {
        record.save(stateDirectory: configuration.state)
        guard !runObservers.isEmpty else { return }
        let finished = record.finishedAt ?? Date()
        let report = SyncRunReport(
            outcome: SyncRunReport.Outcome(record.outcome), startedAt: record.startedAt, finishedAt: finished,
            lastSuccessAt: record.outcome == .ok ? finished : record.lastSuccessAt, summary: summary)
        for observer in runObservers { observer.syncRunFinished(report) }
    }
}
