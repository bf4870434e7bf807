import ArgumentParser
import DocSync
import Logging
import ServiceLifecycle

#if canImport(Glibc)
    import Glibc
#endif

/// `docsync daemon`: sync now, then every interval (± jitter) until SIGTERM or SIGINT; with `[serve]`, the HTTP
/// front beside it in the same process, run by `docsync-serve` (``ServeHost``: `docsync` execs it).
struct DaemonCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Sync now and then every --interval until SIGTERM/SIGINT.",
        discussion: """
            On SIGTERM or SIGINT the sync in flight stops gracefully: downloads are checkpointed (the next run \
            resumes them) and an install in flight either completes or never shows.
            """ + "\n\n" + manual)

    @OptionGroup var configOptions: ConfigOptions

    @Option(help: "Time between syncs (e.g. 6h, 90m).", transform: Self.duration)
    var interval: Duration = .seconds(6 * 3600)

    @Option(help: "Random extra delay of up to this much before each later sync (e.g. 10m).", transform: Self.duration)
    var jitter: Duration = .seconds(600)

    @Flag(help: "Newline-delimited JSON events instead of text.")
    var json = false

    /// The shortest accepted `--interval`: a minute. docsync's own tests lower it through the environment
    /// (`DOCSYNC_TEST_MINIMUM_INTERVAL`, a duration), which is no option of the command line.
    static var minimumInterval: Duration {
        getenv("DOCSYNC_TEST_MINIMUM_INTERVAL").flatMap { ValueSyntax.duration(String(cString: $0)) } ?? .seconds(60)
    }

    func validate() throws {
        let minimum = Self.minimumInterval
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
        let host = ServeHost.current
        if config.serve != nil, host == nil { try ServeExecutable.replaceProcess(for: "daemon") }
        var log = Logger(label: "docsync.daemon")
        log.logLevel = .notice
        let logger = log
        let printer = DaemonPrinter(json: json)
        let staging = config.staging
        let service = SyncService(
            engine: SyncEngine.withMetrics(config), interval: interval, jitter: jitter,
            options: SyncOptions(wait: true), logger: logger,
            onOutcome: { outcome in
                switch outcome {
                case .finished(let summary):
                    let result = SyncReporter.summaryText(summary)
                    if summary.isSuccess {
                        logger.notice("sync done: \(result)")
                    } else {
                        logger.error("sync failed: \(result)")
                    }
                case .interrupted:
                    let partials = PartialDownload.list(in: staging)
                    logger.notice("sync interrupted: \(SyncCommand.interruptionLine(partials))")
                case .failed:
                    break  // logged by the service
                }
                printer.reset()
            },
            onEvent: { printer.handle($0) })
        let every = "every \(DurationText.text(interval)) + up to \(DurationText.text(jitter)) jitter"
        logger.notice("docsync daemon started (pid \(getpid())): sync \(every)")
        defer { logger.notice("docsync daemon stopped") }
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [.init(service: service)]
        if let settings = config.serve, let host {  // [serve] configured: the HTTP front runs beside the sync
            do {
                ServeCommand.warnAboutLicences(config, settings)
                services.append(.init(service: try host.makeServer(config, settings, logger)))
            } catch {
                printError("docsync daemon: \(error)")
                throw ExitStatus.configError
            }
        }
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }
}

/// The daemon's event output: `sync`'s text report (a fresh one per run) or its JSON lines. Events arrive one at
/// a time (``SyncService`` awaits each handler call before the next).
///
/// `@unchecked Sendable`: the reporter is never used concurrently (one event at a time, as above).
final class DaemonPrinter: @unchecked Sendable {
    private let json: Bool
    private var reporter: SyncReporter?

    init(json: Bool) {
        self.json = json
        reporter = json ? nil : SyncReporter()
    }

    func handle(_ event: SyncEvent) {
        if let reporter {
            reporter.handle(event, dryRun: false)
        } else {
            printLine(event.jsonLine())
        }
    }

    func reset() { reporter = json ? nil : SyncReporter() }
}
