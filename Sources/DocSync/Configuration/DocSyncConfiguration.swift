import DocSyncIndex

/// Everything `docsync` needs to run, as loaded from `docsync.toml` (see `config/docsync.toml` for every key).
public struct DocSyncConfiguration: Sendable, Equatable {
    /// Where docsets are installed (`<root>/<NAME>.docset`); Zeal's docset folder.
    public var root: String
    /// Partial downloads and their journals.
    public var staging: String
    /// Feed cache (validators, bodies), last results, the sync lock.
    public var state: String
    /// The feeds to follow (`[[feed]]` tables), in file order.
    public var feeds: [FeedSource]
    /// `[[docset]]` tables: docsets chosen by catalogue name (see `DocSyncConfiguration+Catalog.swift`).
    public var docsets: [DocsetSelection] = []
    /// Where catalogues are read from (`[catalog]` tables).
    public var catalogs = Catalogs()
    /// Downloads: concurrency, retries, timeouts, rate limit, proxy (`[network]`).
    public var network: Network
    /// Installing: grace period, streaming (`[install]`).
    public var install: Install
    /// The root's change log (`[changes]`).
    public var changes = Changes()
    /// Remove installed docsets that no feed lists any more (default: only report them).
    public var prune: Bool
    /// Shell command run after each install/update, with DOCSYNC_NAME, DOCSYNC_VERSION, DOCSYNC_PATH set.
    public var postInstallHook: String?
    /// `[mirror]`: publish installed docsets for a fleet (nil: not a mirror).
    public var mirror: Mirror? = nil
    /// How long the post-install command may run before its whole process group is stopped (a failed docset).
    public var postInstallTimeout: Duration = .seconds(600)
    /// `[[group]]` tables: named groups of docsets, selected as `@name` (`docsync search --docset @web`).
    public var groups = DocsetGroups()
    /// `[metrics] textfile`: a Prometheus text-format file rewritten (atomically) after each run; nil: none. DocSync
    /// only checks its folder: the writer is `MetricsTextFileObserver` (product `DocSyncMetrics`), which the CLI
    /// passes to ``SyncEngine/init(configuration:runObservers:)``.
    public var metricsTextFile: String?
    /// `[search]`: text indexes (see `DocSyncConfiguration+Search.swift`).
    public var search = Search()
    /// `[serve]`: `docsync serve`'s HTTP front (nil: the table is absent; `docsync serve` then uses the defaults).
    public var serve: Serve? = nil

    /// One `[[feed]]` table: a feed and which of its docsets to install.
    public struct FeedSource: Sendable, Equatable {
        /// A local path or an http(s) URL; Atom and Dash formats are told apart by content.
        public var location: String
        /// Folder name (`<name>.docset`) for the feed's docset; default: the Dash feed's name, the Atom entry title.
        public var name: String?
        /// Only this docset identifier of an Atom feed.
        public var identifier: String?
        /// Install exactly this version (`VERSION[/REVISION]`), never a newer one.
        public var version: String?

        /// A feed to follow; without `name`, `identifier` or `version`, every docset it offers, newest version.
        public init(location: String, name: String? = nil, identifier: String? = nil, version: String? = nil) {
            self.location = location
            self.name = name
            self.identifier = identifier
            self.version = version
        }

        /// True for an http(s) URL, false for a local path.
        public var isRemote: Bool { location.hasPrefix("http://") || location.hasPrefix("https://") }
    }

    /// The `[network]` table.
    public struct Network: Sendable, Equatable {
        /// Docsets processed at once (`concurrency`).
        public var concurrency = 2
        /// At most this many downloads from one host at once (`per_host`).
        public var perHost = 2
        /// Transfers at once per download (segmented over ranges and mirrors); 1 disables splitting.
        public var connections = 4
        /// Attempts per download before giving up (transient errors; progress resets the count).
        public var retries = 8
        /// Giving up on connecting to a server after this long (`connect_timeout`).
        public var connectTimeout: Duration = .seconds(30)
        /// No byte for this long is a stall: the connection is dropped and the download resumed.
        public var stallTimeout: Duration = .seconds(60)
        /// Slower than this many bytes per second for `stallTimeout` is a stall too (a server trickling bytes).
        public var minSpeed: Int64 = 1024
        /// Upper bound for one feed request, connect to last byte.
        public var feedTimeout: Duration = .seconds(120)
        /// Receive rate cap in bytes per second (0: unlimited).
        public var rateLimit: Int64 = 0
        /// Proxy URL; unset uses `http_proxy`, `https_proxy`, `no_proxy`.
        public var proxy: String?
        /// PEM file of certificate authorities trusted for https; unset uses `CURL_CA_BUNDLE`, else the system's.
        public var caFile: String?
        /// Refuse plain http for feeds, archives and redirects. False: HTTPS-First (an `http://` archive is tried
        /// as `https://` first; a plain-http install without a checksum is reported as a warning).
        public var requireHTTPS = false
        /// Follow redirects that change the address scope (public to private or back) or lead from one private
        /// host to another.
        public var allowPrivateRedirects = false
        /// Connect to link-local addresses (169.254.0.0/16, fe80::/10) and cloud metadata hosts
        /// (`metadata.google.internal`, …), first request or redirect.
        public var allowLinkLocal = false

        /// The defaults, as `config/docsync.toml` documents them.
        public init() {}
    }

    /// The `[changes]` table: the root's change log (``SyncEngine/changes(since:)``).
    public struct Changes: Sendable, Equatable {
        /// How long a change stays in the log; a cursor older than that is expired (the reader rescans).
        public var keep: Duration = .seconds(365 * 86_400)

        /// The defaults, as `config/docsync.toml` documents them.
        public init() {}
    }

    /// The `[install]` table.
    public struct Install: Sendable, Equatable {
        /// How long a replaced version stays on disk for readers that still have it open.
        public var gracePeriod: Duration = .seconds(600)
        /// Extract while downloading (falls back to download-then-install when false).
        public var streaming = true
        /// Replace a `NAME.docset` folder docsync did not create, moving it aside into `.docsync/foreign/` (kept).
        /// False: such a folder is reported and left alone.
        public var replaceForeign = false
        /// Partial downloads of versions no longer planned are deleted once untouched this long.
        public var partialMaxAge: Duration = .seconds(7 * 86_400)
        /// Largest archive downloaded, in bytes: a longer feed or Content-Length is refused before downloading, and
        /// a body of unknown length is stopped when it passes it.
        public var maxArchiveSize: Int64 = 4 << 30
        /// Bytes that must stay free where archives are staged; checked before and while downloading (0: none).
        public var minFreeSpace: Int64 = 1 << 30
        /// How docsets keep their documents (`layout`): every file extracted, or a tarix store.
        public var layout: InstalledDocset.Layout = .extracted
        /// Per-docset exceptions to ``layout`` (`layouts = { Go = "tarix" }`), by docset name.
        public var layouts: [String: InstalledDocset.Layout] = [:]

        /// The layout of the docset `name`: its exception, else the root's.
        public func layout(of name: String) -> InstalledDocset.Layout { layouts[name] ?? layout }

        /// The defaults, as `config/docsync.toml` documents them.
        public init() {}
    }

    /// A configuration in code; `DocSyncConfigurationLoader.defaults()` (product `DocSyncConfigFile`) gives the XDG
    /// folders the CLI uses.
    public init(
        root: String, staging: String, state: String, feeds: [FeedSource] = [], network: Network = Network(),
        install: Install = Install(), prune: Bool = false, postInstallHook: String? = nil
    ) {
        self.root = root
        self.staging = staging
        self.state = state
        self.feeds = feeds
        self.network = network
        self.install = install
        self.prune = prune
        self.postInstallHook = postInstallHook
    }
}
