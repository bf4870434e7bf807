import DocSyncSupport

/// One installable docset as a catalogue describes it, whatever the catalogue's format.
public struct CatalogEntry: Sendable, Equatable, Codable {
    /// An older version offered beside the latest (`specific_versions`, `other-versions`).
    public struct SpecificVersion: Sendable, Equatable, Codable {
        public var version: String
        /// Mirrors of the archive; empty when they are derived from the catalogue's mirrors on demand.
        public var archives: [String]

        public init(version: String, archives: [String] = []) {
            self.version = version
            self.archives = archives
        }
    }

    public var source: CatalogSource
    /// The feed name or contribution key (`Python_3`, `C++`): the folder name is `<name>.docset`.
    public var name: String
    public var title: String
    /// Newest first; `versions.first` is the latest. `.`-prefixed Kapeli versions are already completed.
    public var versions: [String]
    /// Zeal's revision string (`"0"` when the catalogue has none).
    public var revision: String
    public var aliases: [String]
    /// Base64 PNGs as the catalogue ships them (decoded at install time).
    public var icon: String?
    public var icon2x: String?
    /// Zeal's `extra` object (`indexFilePath`, `isJavaScriptEnabled`, `keywords`), kept as-is for `meta.json`.
    public var extra: JSONValue?
    /// Archive mirrors of the latest version, in preference order.
    public var archives: [String]
    /// The feed this entry comes from, as docsync identifies it (Zeal's API entries without one get Kapeli's
    /// `<base>/<name>.xml`).
    public var feedURL: String?
    /// The catalogue's own `feed_url`, as listed (nil when it lists none): what Zeal writes into `meta.json`.
    public var listedFeedURL: String? = nil
    /// The catalogue's own `urls`, as listed: what Zeal writes into `meta.json`.
    public var listedURLs: [String] = []
    /// Archive bytes, when the catalogue says.
    public var size: Int64?
    public var specificVersions: [SpecificVersion]
    public var author: String?
    /// The latest version's archive SHA-256 when the catalogue states it (a docsync mirror's `catalogue.json`):
    /// enforced at install.
    public var sha256: String?
    /// Zeal's `tarix` flag: the publisher ships the archive's tarix index at `<archive URL>.tarix` (nil: not said).
    package var tarix: Bool? = nil

    public init(
        source: CatalogSource, name: String, title: String? = nil, versions: [String] = [], revision: String = "0",
        aliases: [String] = [], icon: String? = nil, icon2x: String? = nil, extra: JSONValue? = nil,
        archives: [String] = [], feedURL: String? = nil, size: Int64? = nil, specificVersions: [SpecificVersion] = [],
        author: String? = nil, sha256: String? = nil
    ) {
        self.source = source
        self.name = name
        self.title = title ?? name
        self.versions = versions
        self.revision = revision
        self.aliases = aliases
        self.icon = icon
        self.icon2x = icon2x
        self.extra = extra
        self.archives = archives
        self.feedURL = feedURL
        self.size = size
        self.specificVersions = specificVersions
        self.author = author
        self.sha256 = sha256
    }

    /// The newest version, if the catalogue states one.
    public var latestVersion: String? { versions.first }
}

/// One catalogue, parsed: its kind and entries in catalogue order.
public struct Catalog: Sendable, Equatable {
    public var source: CatalogSource
    public var entries: [CatalogEntry]

    public init(source: CatalogSource, entries: [CatalogEntry]) {
        self.source = source
        self.entries = entries
    }
}
