package import DocSyncCatalog

/// The catalogue vocabulary of `[[docset]] source` and `--source` (zeal, kapeli, contrib, cheatsheets), under the
/// name `DocSyncConfiguration.DocsetSelection` already uses.
package typealias CatalogSource = DocSyncCatalog.CatalogSource

/// The configured catalogues, loaded for a command that looks names up in them (`add`, `adopt`, `catalog`): the
/// commands see catalogue docsets as ``Offer`` values and never the catalogue stage's types.
package struct CatalogShelf: Sendable {
    /// One docset a catalogue offers, as the commands show it.
    package struct Offer: Sendable, Equatable {
        /// The catalogue name (`Python_3`), what a `[[docset]]` table selects.
        package var name: String
        /// The human title.
        package var title: String
        /// The catalogue that offers it.
        package var source: CatalogSource
        /// The newest version offered, when the catalogue says.
        package var latestVersion: String?
        /// The catalogue's revision of that version (empty when none).
        package var revision: String
        /// The feed URL the catalogue lists for it.
        package var feedURL: String?

        init(_ entry: CatalogEntry) {
            name = entry.name
            title = entry.title
            source = entry.source
            latestVersion = entry.latestVersion
            revision = entry.revision
            feedURL = entry.feedURL
        }
    }

    /// What looking a name up found.
    package enum Lookup: Sendable, Equatable {
        /// The docset by that name or alias (case-insensitive).
        case found(Offer)
        /// Nothing by that name; the closest names (at most three, best first), possibly none.
        case missing(suggestions: [String])
    }

    /// The catalogues that could not be read this time (the others are on the shelf).
    package var failures: [CatalogLoader.Failure]
    private let resolver: CatalogResolver

    /// A shelf of catalogues already parsed (tests; `load` for the configured ones).
    package init(catalogs: [Catalog], failures: [CatalogLoader.Failure] = []) {
        resolver = CatalogResolver(catalogs: catalogs)
        self.failures = failures
    }

    /// Loads the configured catalogues of `sources` (all when nil), through the feed cache unless `refresh`.
    package static func load(
        _ engine: SyncEngine, sources: Set<CatalogSource>? = nil, refresh: Bool = false
    ) async -> CatalogShelf {
        let loaded = await engine.catalogLoader.load(sources, refresh: refresh)
        return CatalogShelf(catalogs: loaded.catalogs, failures: loaded.failures)
    }

    /// The docset called `name` (a name or alias, case-insensitive), in `source` only when given.
    package func resolve(_ name: String, source: CatalogSource? = nil) -> Lookup {
        switch resolver.resolve(name, source: source) {
        case .found(let entry): .found(Offer(entry))
        case .missing(let suggestions): .missing(suggestions: suggestions)
        }
    }

    /// The docset whose catalogue entry lists the feed `url`.
    package func offer(feedURL url: String) -> Offer? {
        resolver.catalogs.lazy.flatMap(\.entries).first { $0.feedURL == url }.map(Offer.init)
    }

    /// Every docset on the shelf matching `query`, best first, as a search box ranks them (all, by name, when
    /// `query` is empty).
    package func ranked(_ query: String) -> [Offer] {
        CatalogSearch.rank(resolver.catalogs.flatMap(\.entries), query: query).map(Offer.init)
    }
}
