import Foundation

/// Told how each sync run ended, after `last-run.json` is written: the seam through which metrics (product
/// `DocSyncMetrics`, the CLI's `[metrics] textfile`) or a backend's own monitoring plug into ``SyncEngine``
/// without `DocSync` linking them. Called once per run that is not a dry run, on the task that ran the sync;
/// keep it quick and do not throw: a failing observer must not fail the sync it reports on.
public protocol SyncRunObserver: Sendable {
    /// One run ended (successfully, with failures, interrupted, or with an error that stopped it).
    func syncRunFinished(_ report: SyncRunReport)
}

/// How one sync run ended, as a ``SyncRunObserver`` sees it.
public struct SyncRunReport: Sendable, Equatable {
    /// How a run ended: compare with the static members (`report.outcome == .ok`); new kinds may be added.
    public struct Outcome: Sendable, Hashable, CustomStringConvertible {
        /// `ok`, `failed`, `interrupted` or `error` (the values of `last-run.json` and the metrics' `result`).
        public let description: String

        private init(_ description: String) { self.description = description }

        /// Everything synced.
        public static let ok = Outcome("ok")
        /// Some docsets, feeds or hooks failed.
        public static let failed = Outcome("failed")
        /// Stopped by cancellation (SIGINT, SIGTERM); partial downloads kept.
        public static let interrupted = Outcome("interrupted")
        /// The run could not go on.
        public static let error = Outcome("error")

        /// Every outcome, in this order.
        public static let all: [Outcome] = [.ok, .failed, .interrupted, .error]

        init(_ outcome: RunRecord.Outcome?) {
            switch outcome {
            case .ok: self = .ok
            case .failed: self = .failed
            case .interrupted: self = .interrupted
            case .error, nil: self = .error
            }
        }
    }

    /// How the run ended.
    public var outcome: Outcome
    /// When the run started.
    public var startedAt: Date
    /// When the run ended.
    public var finishedAt: Date
    /// When the last run that ended ``Outcome/ok`` finished: this one's end when it did, else an earlier run's
    /// (nil: never).
    public var lastSuccessAt: Date?
    /// The run's counts (a run stopped by an error has only the bytes transferred).
    public var summary: SyncSummary

    /// A report (for tests and observers that forward reports).
    public init(
        outcome: Outcome, startedAt: Date, finishedAt: Date, lastSuccessAt: Date?, summary: SyncSummary
    ) {
        self.outcome = outcome
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.lastSuccessAt = lastSuccessAt
        self.summary = summary
    }
}
