import ArgumentParser
import DocSync
import DocSyncDownload
import DocSyncSupport
import Logging
import ServiceLifecycle

#if canImport(Glibc)
    import Glibc
#endif

/// `docsync daemon`: sync now, then every interval (± jitter) until SIGTERM or SIGINT.
struct DaemonCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Sync now and then every --interval until SIGTERM/SIGINT.",
        discussion: """
            On SIGTERM or SIGINT the sync in flight stops gracefully: downloads are checkpointed (the next run \
            resumes them) and an install in flight either completes or never shows.
            """)

    @OptionGroup var configOptions: ConfigOptions

    @Option(help: "Time between syncs (e.g. 6h, 90m).", transform: Self.duration)
    var interval: Duration = .seconds(6 * 3600)

    @Option(help: "Random extra delay of up to this much before each later sync (e.g. 10m).", transform: Self.duration)
    var jitter: Duration = .seconds(600)

    @Flag(help: "Newline-delimited JSON events instead of text.")
    var json = false

    /// The shortest accepted `--interval`; lowered only by tests, through the hidden `--test-minimum-interval`.
    static let minimumInterval: Duration = .seconds(60)

    @Option(help: .hidden, transform: Self.duration)
    var testMinimumInterval: Duration?

    func validate() throws {
        let minimum = testMinimumInterval ?? Self.minimumInterval
        guard interval >= minimum else {
            throw ValidationError(
                "--interval \(Self.format(interval)) is too short: the minimum is \(Self.format(minimum)) "
                    + "(a sync every few seconds only loads the publishers' servers)")
        }
    }

    static func format(_ duration: Duration) -> String { "\(duration.components.seconds)s" }

    static func duration(_ text: String) throws -> Duration {
        guard let value = ValueSyntax.duration(text) else {
            throw ValidationError("'\(text)' is not a duration (e.g. 90s, 10m, 6h, 1h30m)")
        }
        return value
    }

    func run() async throws {
        let config = try configOptions.load()
        var logger = Logger(label: "docsync.daemon")
        logger.logLevel = .notice
        let service = PeriodicSync(config: config, interval: interval, jitter: jitter, json: json, logger: logger)
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [.init(service: service)], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }
}

/// The daemon's one service: its whole contract is `run()`; graceful shutdown cancels the sync in flight.
struct PeriodicSync: Service {
    var partials: [PartialDownload] { PartialDownload.list(in: config.staging) }

    let config: Configuration
    let interval: Duration
    let jitter: Duration
    let json: Bool
    let logger: Logger

    func run() async throws {
        let every = "every \(DurationText.text(interval)) + up to \(DurationText.text(jitter)) jitter"
        logger.notice("docsync daemon started (pid \(getpid())): sync \(every)")
        defer { logger.notice("docsync daemon stopped") }
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    let options = SyncOptions(wait: true)
                    let summary = try await SyncCommand.runOnce(config: config, options: options, json: json)
                    if Task.isCancelled {
                        logger.notice("sync interrupted: \(SyncCommand.interruptionLine(partials))")
                        break
                    }
                    let result = SyncReporter.summaryText(summary)
                    if summary.isSuccess { logger.notice("sync done: \(result)") } else { logger.error("sync failed: \(result)") }
                } catch is CancellationError {
                    logger.notice("sync interrupted: \(SyncCommand.interruptionLine(partials))")
                    break
                } catch {
                    logger.error("sync failed: \(UserText.describe(error).redactingCredentials.escapingControlCharacters)")
                }
                let extra = Double.random(in: 0...1) * Double(jitter.components.seconds)
                let delay = interval + .seconds(extra)
                logger.notice("next sync in \(DurationText.text(delay))")
                do {
                    try await Task.sleep(for: delay)
                } catch {
                    break  // graceful shutdown while waiting
                }
            }
        }
    }
}
