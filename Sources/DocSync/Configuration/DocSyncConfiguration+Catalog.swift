internal import DocSyncCatalog

extension DocSyncConfiguration {
    /// Where the catalogues are read from (`[catalog]`, `[catalog.zeal]`, …). Each `url` is an http(s) URL or a
    /// local path; an empty `url` turns that catalogue off. Catalogues are fetched only when a `[[docset]]` (or
    /// `docsync catalog`) needs them, through the same conditional-GET cache as feeds.
    public struct Catalogs: Sendable, Equatable {
        /// Zeal's catalogue URL.
        public static let zealDefault = "https://api.zealdocs.org/v1/docsets"
        /// Dash user contributions' index URL.
        public static let contribDefault = "https://kapeli.com/feeds/zzz/user_contributed/build/index.json"
        /// Dash cheat sheets' index URL.
        public static let cheatsheetsDefault = "https://kapeli.com/feeds/zzz/cheatsheets/cheat.json"

        /// `[catalog.zeal] url`: Zeal's catalogue JSON.
        public var zeal: String? = Self.zealDefault
        /// `[catalog.kapeli] base_url`: the folder of Kapeli's per-docset feeds (`<base>/<Name>.xml`).
        public var kapeliBase: String? = KapeliFeeds.defaultBase
        /// `[catalog.contrib] url`: Dash user contributions' `index.json`.
        public var contrib: String? = Self.contribDefault
        /// `[catalog.cheatsheets] url`: Dash cheat sheets' `cheat.json`.
        public var cheatsheets: String? = Self.cheatsheetsDefault
        /// `[catalog] mirrors`: Kapeli's `feeds` folders on each archive host, tried in a learned order.
        public var alternates: [String] = CatalogAlternates.kapeli

        /// The default catalogues (Zeal's, Kapeli's feeds, contributions, cheat sheets).
        public init() {}

        /// The catalogues with an index to fetch, in lookup order, with their locations.
        package var indexes: [(source: CatalogSource, location: String)] {
            [(CatalogSource.zeal, zeal), (.contrib, contrib), (.cheatsheets, cheatsheets)].compactMap { pair in
                pair.1.map { (pair.0, $0) }
            }
        }
    }

    /// A `[[docset]]` table: a docset chosen by its catalogue name.
    public struct DocsetSelection: Sendable, Equatable {
        /// The catalogue name or an alias (`Python_3`, `py3`), case-insensitive.
        public var name: String
        /// Install exactly this version (through `other-versions` / `specific_versions`), never a newer one.
        public var version: String?
        /// Only this catalogue (default: Zeal's, then contributions, then cheat sheets).
        package var source: CatalogSource?
        /// Versions kept side by side (`versions = ["3.12", "3.13"]`, `"latest"` for the one that moves): each is
        /// its own docset, the newest named as the catalogue names it, every other `NAME@VERSION`; empty: one
        /// docset at ``version``.
        public var versions: [String] = []
        /// Search keywords added to the installed docset's own (`keywords = ["py"]`: `docsync search py:open`),
        /// lowercased, without duplicates.
        public var keywords: [String] = []

        /// A docset chosen by catalogue name, from the first catalogue that has it.
        public init(name: String, version: String? = nil) {
            self.init(name: name, version: version, source: nil)
        }

        package init(name: String, version: String? = nil, source: CatalogSource?) {
            self.name = name
            self.version = version
            self.source = source
        }
    }
}

extension DocSyncConfiguration {
    /// The `[[docset]] keywords` configured for the installed docset `name` (its selection's name, ignoring case).
    package func configuredKeywords(for name: String) -> [String] {
        docsets.first { $0.name.lowercased() == name.lowercased() }?.keywords ?? []
    }
}
