package import DocSyncCatalog
internal import DocSyncHTTP
import Foundation

/// The configured catalogues, fetched through the feed cache (fresh: no request; else a conditional GET) and
/// parsed. A catalogue that cannot be fetched or parsed is a failure naming it; the others still load.
package struct CatalogLoader: Sendable {
    /// One catalogue that could not be used this time.
    package struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        package var source: CatalogSource
        package var location: String
        package var reason: String
        /// The same failure as a value, for the `feed-failed` event.
        package var failure: SyncFailure
        package var description: String { "\(location): \(reason)" }
    }

    /// What loading produced: catalogues in lookup order, failures, and per location how it was obtained.
    package struct Loaded: Sendable {
        package var catalogs: [Catalog] = []
        package var failures: [Failure] = []
        package var fetched: [(location: String, source: FeedRefresher.Source, entries: Int)] = []
    }

    package let catalogs: DocSyncConfiguration.Catalogs
    package let refresher: FeedRefresher

    package init(catalogs: DocSyncConfiguration.Catalogs, refresher: FeedRefresher) {
        self.catalogs = catalogs
        self.refresher = refresher
    }

    package var alternates: CatalogAlternates { CatalogAlternates(bases: catalogs.alternates) }

    /// Loads the indexes of `sources` (all of them when nil), in parallel.
    package func load(_ sources: Set<CatalogSource>? = nil, refresh: Bool) async -> Loaded {
        let wanted = catalogs.indexes.filter { sources?.contains($0.source) ?? true }
        let results = await SyncEngine.boundedMap(wanted.indices, width: 4) {
            index -> Result<(Catalog, FeedRefresher.Source), Failure> in
            let (source, location) = wanted[index]
            do {
                let fetched = try await refresher.fetch(location, refresh: refresh)
                return .success((try parse(fetched.bytes, source: source, location: location), fetched.source))
            } catch {
                var reason = "\(error)"
                if reason.hasPrefix("\(location): ") { reason.removeFirst(location.count + 2) }
                return .failure(
                    Failure(
                        source: source, location: location, reason: reason,
                        failure: SyncFailure(error, url: location)))
            }
        }
        var loaded = Loaded()
        for (index, result) in results.enumerated() {
            switch result {
            case .success(let (catalog, how)):
                loaded.catalogs.append(catalog)
                loaded.fetched.append((wanted[index].location, how, catalog.entries.count))
            case .failure(let failure): loaded.failures.append(failure)
            }
        }
        return loaded
    }

    func parse(_ bytes: [UInt8], source: CatalogSource, location: String) throws(CatalogError) -> Catalog {
        switch source {
        case .zeal:
            try ZealCatalogParser.parse(
                bytes, catalog: location, alternates: alternates, feedBase: catalogs.kapeliBase ?? KapeliFeeds.defaultBase)
        case .contrib: try ContribIndexParser.parse(bytes, catalog: location, alternates: alternates)
        case .cheatsheets: try CheatsheetIndexParser.parse(bytes, catalog: location, alternates: alternates)
        case .kapeli: Catalog(source: .kapeli, entries: [])
        }
    }
}
