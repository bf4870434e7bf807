public import Logging
public import ServiceLifecycle
internal import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Periodic syncs as a swift-service-lifecycle `Service`: a sync now, then one every ``interval`` plus a random
/// delay of up to ``jitter``, until the service group shuts down gracefully (SIGTERM, SIGINT) or the task is
/// cancelled. What `docsync daemon` runs; an indexing backend adds it to its own `ServiceGroup` beside its server,
/// so it needs neither the CLI nor a timer of its own.
///
/// ```swift
/// let syncs = SyncService(engine: engine, interval: .seconds(6 * 3600), logger: logger) { event in
///     if case .installed(let docset) = event { await reindex(docset) }
/// }
/// try await ServiceGroup(services: [syncs, server], gracefulShutdownSignals: [.sigterm], logger: logger).run()
/// ```
///
/// On graceful shutdown the sync in flight stops as a cancelled sync does: downloads are checkpointed (the next run
/// resumes them) and an install in flight either completes or never shows. A run that could not start (another
/// process holds the lock: each run waits for it, see ``SyncOptions/wait``) or failed is reported and the loop
/// goes on; the service itself never throws.
public struct SyncService: Service, Sendable {
    /// How one run of the loop ended.
    public enum Outcome: Sendable {
        /// The run finished; its summary says what succeeded and what failed.
        case finished(SyncSummary)
        /// Graceful shutdown or cancellation stopped the run; partial downloads are kept for the next.
        case interrupted
        /// The run could not start.
        case failed(SyncError)
    }

    /// The engine every run uses.
    public let engine: SyncEngine
    /// Time between the end of one run and the start of the next (before jitter).
    public let interval: Duration
    /// A random extra delay of up to this much before each later run (spreads a fleet's requests).
    public let jitter: Duration
    /// The options of every run (by default: wait for a sync another process runs, then run).
    public let options: SyncOptions
    private let logger: Logger
    private let onEvent: @Sendable (SyncEvent) async -> Void
    private let onOutcome: @Sendable (Outcome) async -> Void

    /// A service running `engine`'s sync every `interval` (+ up to `jitter`). `onEvent` (the trailing closure) sees
    /// every event of every run, in order (the next event waits for it); `onOutcome` sees how each run ended.
    /// `logger` gets one `notice` per run ("next sync in …") and an `error` for a run that failed.
    public init(
        engine: SyncEngine, interval: Duration, jitter: Duration = .zero,
        options: SyncOptions = SyncOptions(wait: true), logger: Logger,
        onOutcome: @escaping @Sendable (Outcome) async -> Void = { _ in },
        onEvent: @escaping @Sendable (SyncEvent) async -> Void
    ) {
        self.engine = engine
        self.interval = interval
        self.jitter = jitter
        self.options = options
        self.logger = logger
        self.onEvent = onEvent
        self.onOutcome = onOutcome
    }

    /// Runs syncs until graceful shutdown or cancellation; returns then (never throws).
    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                let outcome = await runOnce()
                await onOutcome(outcome)
                if case .interrupted = outcome { break }
                let delay = nextDelay()
                logger.notice("next sync in \(DurationText.text(delay))")
                do {
                    try await Task.sleep(for: delay)
                } catch {
                    break  // graceful shutdown while waiting
                }
            }
        }
    }

    /// One sync, its events handed on.
    func runOnce() async -> Outcome {
        var summary = SyncSummary()
        do {
            for try await event in engine.sync(options) {
                await onEvent(event)
                if case .summary(let s) = event { summary = s }
            }
        } catch where error == .cancelled {
            return .interrupted
        } catch {
            if Task.isCancelled { return .interrupted }
            logger.error("sync failed: \(error.message.redactingCredentials.escapingControlCharacters)")
            return .failed(error)
        }
        return Task.isCancelled ? .interrupted : .finished(summary)
    }

    /// `interval` plus a uniformly random part of `jitter`.
    func nextDelay() -> Duration {
        let (seconds, attoseconds) = jitter.components
        let jitterSeconds = Double(seconds) + Double(attoseconds) / 1e18
        return interval + .seconds(Double.random(in: 0...1) * max(0, jitterSeconds))
    }
}
