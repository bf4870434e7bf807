import ArgumentParser
import DocSync
import Logging
import ServiceLifecycle

/// `docsync serve`: the installed docsets over HTTP (pages, search, the search page), read-only, until SIGTERM or
/// SIGINT. Run by `docsync-serve` (``ServeHost``): `docsync` itself execs it with the same arguments.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the installed docsets over HTTP: pages, search API and a search page (read-only).",
        discussion: """
            Listens on [serve] listen (default 127.0.0.1:8484). A non-loopback address must be asked for with \
            --allow-remote or [serve] allow_remote = true; put nginx with TLS and auth in front (README). \
            On SIGTERM or SIGINT, requests in flight finish, then it exits.
            """ + "\n\n" + manual)

    @OptionGroup var configOptions: ConfigOptions
    @OptionGroup var rootOptions: RootOptions

    @Option(help: "HOST:PORT to listen on (default: [serve] listen, else 127.0.0.1:8484).")
    var listen: String?

    @Flag(help: "Allow a non-loopback --listen address.")
    var allowRemote = false

    @Option(help: "Access log: - for standard output, a file to append to, or an empty string for none.")
    var accessLog: String?

    func run() async throws {
        guard let host = ServeHost.current else { try ServeExecutable.replaceProcess(for: "serve") }
        let config = try configOptions.load(rootOptions)
        var settings = config.serve ?? DocSyncConfiguration.Serve()
        if let listen { settings.listen = listen }
        if allowRemote { settings.allowRemote = true }
        if let accessLog { settings.accessLog = accessLog.isEmpty ? nil : accessLog }
        Self.warnAboutLicences(config, settings)
        var log = Logger(label: "docsync.serve")
        log.logLevel = .notice
        let server: any Service
        do {
            server = try host.makeServer(config, settings, log)
        } catch {
            printError("docsync serve: \(error)")
            throw ExitStatus.configError
        }
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [.init(service: server)], gracefulShutdownSignals: [.sigterm, .sigint], logger: log))
        do {
            try await group.run()
        } catch where host.isServerError(error) {
            printError("docsync serve: \(error)")
            throw ExitStatus.unavailable
        }
    }

    /// One warning per Kapeli docset when `settings` listens beyond loopback without `[serve] kapeli_permission`
    /// (``KapeliLicence``); `docsync daemon` with `[serve]` calls it too.
    static func warnAboutLicences(_ config: DocSyncConfiguration, _ settings: DocSyncConfiguration.Serve) {
        guard settings.allowRemote, !KapeliLicence.isLoopback(listen: settings.listen) else { return }
        let installed = (try? SyncEngine(configuration: config).installedDocsets()) ?? []
        for warning in KapeliLicence.warnings(
            for: installed, permission: settings.kapeliPermission, key: "[serve] kapeli_permission")
        {
            printError("docsync serve: warning: \(TerminalText.safe(warning))")
        }
    }
}
