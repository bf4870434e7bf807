extension Configuration {
    /// `[serve]`: the read-only HTTP front `docsync serve` runs (see `config/docsync.toml`).
    public struct Serve: Sendable, Equatable {
        /// `HOST:PORT` to bind (`[::1]:8484` for IPv6).
        public var listen = "127.0.0.1:8484"
        /// Binding anything but a loopback address must be asked for (`allow_remote = true`).
        public var allowRemote = false
        /// `-` for standard output, a file path (appended to), or nil for no access log.
        public var accessLog: String? = "-"
        /// A connection without activity this long is closed.
        public var idleTimeout: Duration = .seconds(30)
        /// A search or page read taking longer than this is answered `503`.
        public var requestTimeout: Duration = .seconds(10)
        /// Connections accepted at once.
        public var maxConnections = 512
        /// `Cache-Control: max-age` of pages.
        public var cacheMaxAge: Duration = .seconds(600)

        /// The defaults, as `config/docsync.toml` documents them.
        public init() {}
    }

    /// The accepted `[serve] max_connections`.
    package static let serveConnectionsRange = 1...65_536
}

extension ConfigurationLoader {
    /// `[serve]`: every key optional.
    func readServe(_ reader: inout TableReader, into config: inout Configuration) throws(ConfigurationError) {
        guard var table = try reader.table("serve") else { return }
        var serve = Configuration.Serve()
        serve.listen = try table.string("listen") ?? serve.listen
        serve.allowRemote = try table.bool("allow_remote") ?? serve.allowRemote
        if let log = try table.string("access_log") {
            serve.accessLog = log.isEmpty ? nil : log == "-" ? "-" : try table.resolvePath(log, key: "access_log")
        }
        serve.idleTimeout = try table.duration("idle_timeout") ?? serve.idleTimeout
        serve.requestTimeout = try table.duration("request_timeout") ?? serve.requestTimeout
        serve.maxConnections =
            try table.int("max_connections", in: Configuration.serveConnectionsRange) ?? serve.maxConnections
        serve.cacheMaxAge = try table.duration("cache_max_age") ?? serve.cacheMaxAge
        if serve.idleTimeout <= .zero { throw table.error("idle_timeout", "must be more than 0") }
        if serve.requestTimeout <= .zero { throw table.error("request_timeout", "must be more than 0") }
        try table.finish()
        config.serve = serve
    }
}
