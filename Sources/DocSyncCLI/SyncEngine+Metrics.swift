import DocSync
import DocSyncMetrics

extension SyncEngine {
    /// The engine `sync` and `daemon` run: with `[metrics] textfile`, the Prometheus file is rewritten after each
    /// run (DocSync itself does not link swift-prometheus; metrics plug in as a `SyncRunObserver`).
    static func withMetrics(_ config: DocSyncConfiguration) -> SyncEngine {
        SyncEngine(configuration: config, runObservers: MetricsTextFileObserver.observers(for: config))
    }

    /// The observers `docsync serve` (and the daemon's server) tell its request totals: the `[metrics] textfile`
    /// writer when the key is set (its `docsync_serve_*` lines, beside the sync run's).
    package static func serveObservers(_ config: DocSyncConfiguration) -> [any ServeObserver] {
        MetricsTextFileObserver.observers(for: config)
    }
}
