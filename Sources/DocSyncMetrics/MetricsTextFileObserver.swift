import DocSync

/// The `[metrics] textfile` writer as a `SyncRunObserver`: after each sync run it rewrites `path` (atomically)
/// with the run's ``RunMetrics`` for node_exporter's textfile collector. A write that fails is ignored: the
/// preflight checked the folder, and metrics must never fail the sync they report on.
public struct MetricsTextFileObserver: SyncRunObserver {
    /// The Prometheus text file rewritten after each run.
    public let path: String

    /// An observer rewriting `path`.
    public init(path: String) { self.path = path }

    /// The observers for `config`: one rewriting `[metrics] textfile` when the key is set, else none. What `sync`,
    /// `daemon` and `serve` pass to the engine and the server.
    package static func observers(for config: DocSyncConfiguration) -> [MetricsTextFileObserver] {
        config.metricsTextFile.map { [MetricsTextFileObserver(path: $0)] } ?? []
    }

    /// Writes the run's metrics to ``path``.
    public func syncRunFinished(_ report: SyncRunReport) {
        try? MetricsTextFile.write(RunMetrics(report), to: path)
    }
}

extension MetricsTextFileObserver: ServeObserver {
    /// Rewrites the `docsync_serve_*` lines of ``path`` with the server's totals (the sync run's lines kept).
    package func serveStatsUpdated(_ stats: ServeStats) {
        try? MetricsTextFile.write(stats, to: path)
    }
}

extension RunMetrics {
    /// The metrics of one finished run.
    public init(_ report: SyncRunReport) {
        let summary = report.summary
        self.init(
            lastSuccess: report.lastSuccessAt?.timeIntervalSince1970,
            finished: report.finishedAt.timeIntervalSince1970,
            durationSeconds: report.finishedAt.timeIntervalSince(report.startedAt),
            result: report.outcome.description, installed: summary.installed, updated: summary.updated,
            unchanged: summary.unchanged, removed: summary.removed, failed: summary.failed,
            feedsFailed: summary.feedsFailed, bytesDownloaded: summary.bytesDownloaded,
            bytesResumed: summary.bytesResumed)
    }
}
