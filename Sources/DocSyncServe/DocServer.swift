import DocSync
import DocSyncSupport
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

#if canImport(Glibc)
    import Glibc
#endif

/// `docsync serve`: a read-only HTTP front for the installed docsets (pages under `/d/`, search under `/api/`, the
/// search page at `/`), run as a swift-service-lifecycle service: alone, or beside ``SyncService`` in the daemon's
/// service group, stopping gracefully with it (connections in flight finish, then it returns).
package struct DocServer: Service {
    package let configuration: DocSyncConfiguration
    package let settings: DocSyncConfiguration.Serve
    package let address: ListenAddress
    let logger: Logger
    let docsets: ServedDocsets
    let accessLog: AccessLog?
    let observers: [any ServeObserver]
    let onListening: @Sendable (Int) async -> Void

    /// How often the ``ServeObserver``s are told the totals (and once more at shutdown).
    static let statsInterval: Duration = .seconds(15)

    /// A server for `configuration`'s root with `settings`; throws a ``ServeError`` for a malformed or
    /// non-loopback `listen` not allowed. `observers` (the `[metrics] textfile` writer) are told the request
    /// totals every 15 seconds and at shutdown. `onListening` gets the bound port once the server accepts
    /// connections.
    package init(
        configuration: DocSyncConfiguration, settings: DocSyncConfiguration.Serve, logger: Logger,
        observers: [any ServeObserver] = [], onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) throws(ServeError) {
        guard let address = ListenAddress(settings.listen) else { throw .badAddress(settings.listen) }
        guard address.isLoopback || settings.allowRemote else { throw .remoteNotAllowed(address) }
        self.configuration = configuration
        self.settings = settings
        self.address = address
        self.logger = logger
        self.docsets = ServedDocsets(engine: SyncEngine(configuration: configuration))
        do {
            self.accessLog = try settings.accessLog.map(AccessLog.init(destination:))
        } catch {
            throw .cannotStart(address, "[serve] access_log: \(error)")
        }
        self.observers = observers
        self.onListening = onListening
    }

    /// Serves until graceful shutdown (SIGTERM/SIGINT through the service group) or cancellation.
    package func run() async throws {
        let reads = BlockingPool(name: "docsync-read", threads: BlockingPool.cores, queueLimit: 1024)
        // Twice as many search threads as cores: searches take 0.3-5 ms of CPU (heavy-tailed), and with one thread
        // per core a slow one (or a thread the kernel descheduled) held up every query queued behind it; with more
        // threads than cores the kernel time-slices them and short queries pass (Benchmarks/README.md: serve-bench's
        // search p99, hsearch6).
        let searches = BlockingPool(
            name: "docsync-search", threads: BlockingPool.cores * 2, queueLimit: 256, stackSize: 1 << 20)
        defer {
            reads.shutdown()
            searches.shutdown()
        }
        let cache = PageCache(capacity: settings.pageCacheMiB << 20)
        let routes = Routes(
            docsets: docsets, settings: settings, logger: logger, reads: reads, searches: searches,
            reader: PageReader(), cache: cache)
        let log = accessLog
        let timeout = settings.requestTimeout
        let counters = ServeCounters()
        let responder = CallbackResponder<ServeContext> { request, context in
            let start = ContinuousClock.now
            var response = await routes.respond(to: request, timeout: timeout)
            response.headers[.init("X-Content-Type-Options")!] = "nosniff"
            log?.record(request: request, remote: context.remote, response: response)
            counters.record(
                .init(path: Substring(request.uri.path)), status: response.status.code,
                duration: ContinuousClock.now - start)
            return response
        }
        let observers = self.observers
        let report = { @Sendable in
            let stats = counters.stats(reads: reads, searches: searches, cache: cache)
            for observer in observers { observer.serveStatsUpdated(stats) }
        }
        let http1 = HTTP1Channel.Configuration(
            idleTimeout: TimeAmount(settings.idleTimeout),
            httpDecoderConfiguration: .init(
                maxHeaderFieldSize: 8 * 1024, maxHeaderListSize: 32 * 1024, maxHeaderFieldCount: 100))
        let descriptors = Self.descriptorLimit()
        let remembered = Self.rememberedPages(descriptors: descriptors)
        let connections = IdleConnections(
            budget: .of(configured: settings.maxConnections, descriptors: descriptors, remembered: remembered))
        let timeouts = ConnectionTimeouts(
            idle: TimeAmount(settings.idleTimeout), header: TimeAmount(settings.headerTimeout),
            body: TimeAmount(settings.bodyTimeout))
        let pages = PageFastPath(
            routes: routes, log: log, counters: counters, heads: PageHeads(capacity: remembered))
        let onListening = self.onListening
        let address = self.address
        let logger = self.logger
        let app = Application(
            responder: responder,
            server: HTTPServerBuilder { respond in
                ServeHTTP1Channel(
                    http1: HTTP1Channel(responder: respond, configuration: http1), pages: pages, timeouts: timeouts,
                    connections: connections)
            },
            configuration: ApplicationConfiguration(
                address: .hostname(address.host, port: address.port), serverName: "docsync",
                availableConnectionsDelegate: MaximumAvailableConnections(connections.budget.acceptBelow)),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? address.port
                logger.notice("docsync serve listening on http://\(ListenAddress(host: address.host, port: port))/")
                await onListening(port)
            },
            logger: logger)
        let reporter = Task {
            guard !observers.isEmpty else { return }
            while (try? await Task.sleep(for: Self.statsInterval)) != nil { report() }
        }
        // The access log's lines reach its file within a second, and all of them when the server stops.
        let flusher = Task {
            guard let log else { return }
            while (try? await Task.sleep(for: .seconds(1))) != nil { log.flush() }
        }
        defer {
            reporter.cancel()
            flusher.cancel()
            log?.flush()
            if !observers.isEmpty { report() }
        }
        do {
            try await app.run()
        } catch let error as IOError {
            throw ServeError.cannotStart(address, "\(error)")
        }
    }
}

extension DocServer {
    /// The open-file limit, after raising its soft value to its hard one (up to 65,536), as Go's runtime does at
    /// start and nginx's `worker_rlimit_nofile` asks (systemd's default soft limit is 1,024): connections and pages
    /// kept open share it (``ConnectionBudget``).
    static func descriptorLimit() -> Int {
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return 1024 }
        let wanted = min(limit.rlim_max, 65_536)
        if limit.rlim_cur < wanted {
            var raised = limit
            raised.rlim_cur = wanted
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        return Int(min(limit.rlim_cur, 1 << 20))
    }

    /// How many pages the fast path keeps open (``PageHeads``): a quarter of the open-file limit, at most 4,096.
    static func rememberedPages(descriptors: Int) -> Int {
        min(4096, descriptors / 4)
    }
}

/// The request context: the peer's address, for the access log.
package struct ServeContext: RequestContext {
    package var coreContext: CoreRequestContextStorage
    /// The client's IP address, or `-`.
    package let remote: String

    package init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remote = source.channel.remoteAddress?.ipAddress ?? "-"
    }
}
