import DocSyncSupport

/// One installable docset as a catalogue describes it, whatever the catalogue's format.
package struct CatalogEntry: Sendable, Equatable, Codable {
    /// An older version offered beside the latest (`specific_versions`, `other-versions`).
    package struct SpecificVersion: Sendable, Equatable, Codable {
        package var version: String
        /// Mirrors of the archive; empty when they are derived from the catalogue's mirrors on demand.
        package var archives: [String]

        package init(version: String, archives: [String] = []) {
            self.version = version
            self.archives = archives
        }
    }

    package var source: CatalogSource
    /// The feed name or contribution key (`Python_3`, `C++`): the folder name is `<name>.docset`.
    package var name: String
    package var title: String
    /// Newest first; `versions.first` is the latest. `.`-prefixed Kapeli versions are already completed.
    package var versions: [String]
    /// Zeal's revision string (`"0"` when the catalogue has none).
    package var revision: String
    package var aliases: [String]
    /// Base64 PNGs as the catalogue ships them (decoded at install time).
    package var icon: String?
    package var icon2x: String?
    /// Zeal's `extra` object (`indexFilePath`, `isJavaScriptEnabled`, `keywords`), kept as-is for `meta.json`.
    package var extra: JSONValue?
    /// Archive mirrors of the latest version, in preference order.
    package var archives: [String]
    /// The feed this entry comes from, as docsync identifies it (Zeal's API entries without one get Kapeli's
    /// `<base>/<name>.xml`).
    package var feedURL: String?
    /// The catalogue's own `feed_url`, as listed (nil when it lists none): what Zeal writes into `meta.json`.
    package var listedFeedURL: String? = nil
    /// The catalogue's own `urls`, as listed: what Zeal writes into `meta.json`.
    package var listedURLs: [String] = []
    /// Archive bytes, when the catalogue says.
    package var size: Int64?
    package var specificVersions: [SpecificVersion]
    package var author: String?
    /// The latest version's archive SHA-256 when the catalogue states it (a docsync mirror's `catalogue.json`):
    /// enforced at install.
    package var sha256: String?
    /// Zeal's `tarix` flag: the publisher ships the archive's tarix index at `<archive URL>.tarix` (nil: not said).
    package var tarix: Bool? = nil

    package init(
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
    package var latestVersion: String? { versions.first }
}

/// One catalogue, parsed: its kind and entries in catalogue order.
package struct Catalog: Sendable, Equatable {
    package var source: CatalogSource
    package var entries: [CatalogEntry]

    package init(source: CatalogSource, entries: [CatalogEntry]) {
        self.source = source
        self.entries = entries
    }
}
