extension DocSyncConfiguration {
    /// `[serve]`: the read-only HTTP front `docsync serve` runs (see `config/docsync.toml`).
    public struct Serve: Sendable, Equatable {
        /// `HOST:PORT` to bind (`[::1]:8484` for IPv6).
        public var listen = "127.0.0.1:8484"
        /// Binding anything but a loopback address must be asked for (`allow_remote = true`).
        public var allowRemote = false
        /// `-` for standard output, a file path (appended to), or nil for no access log.
        public var accessLog: String? = "-"
        /// A connection waiting this long for the first byte of a request (no request in progress) is closed.
        public var idleTimeout: Duration = .seconds(30)
        /// A request head not complete this long after its first byte closes the connection (however it trickles).
        public var headerTimeout: Duration = .seconds(10)
        /// A request body not complete this long after its head closes the connection (however it trickles).
        public var bodyTimeout: Duration = .seconds(10)
        /// A search or page read taking longer than this is answered `503`.
        public var requestTimeout: Duration = .seconds(10)
        /// Connections open at once, at most (bounded further by the open-file limit); near it, the connections
        /// idle longest are closed for new ones.
        public var maxConnections = 16_384
        /// `Cache-Control: max-age` of pages.
        public var cacheMaxAge: Duration = .seconds(600)
        /// MiB of memory for pages inflated from tarix stores, kept for the next request (0: none). Each page is kept
        /// in storage of its length: 20 MiB of pages take about the memory 12 MiB took in power-of-two buffers.
        public var pageCacheMiB = 20
        /// `kapeli_permission`: the operator has Kapeli's permission to serve its docsets to others, so a `serve`
        /// listening beyond loopback does not warn about them (``KapeliLicence``).
        public var kapeliPermission = false

        /// The defaults, as `config/docsync.toml` documents them.
        public init() {}
    }

    /// The accepted `[serve] page_cache_mib`.
    package static let servePageCacheRange = 0...4096

    /// The accepted `[serve] max_connections`.
    package static let serveConnectionsRange = 1...65_536
}
