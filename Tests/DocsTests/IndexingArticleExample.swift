import DocSync
import Logging

/// Indexes every installed docset from a leased version: the hits of `query`, each with its page's bytes.
func indexDocsets(engine: SyncEngine, query: String, store: (String, String, [UInt8]) -> Void) async throws {
    for docset in try engine.installedDocsets() {
        let lease = try await engine.lease(docset.name)  // this version stays on disk until release()
        defer { lease.release() }
        let search = engine.index(lease)  // the leased version only, whatever a sync installs meanwhile
        let results = try await search.search(SearchQuery(query, limit: 100))  // limit 0...10 000, else an error
        for hit in results.hits {
            let page = hit.page  // relative to Documents, in every layout (Apple's too), as entries name it
            do {
                store(hit.name, page, try await lease.contents(of: page))
            } catch {
                print("\(docset.name): \(page): \(error.kind)")  // a DocumentError: refused, missing, too large
            }
        }
    }
}

/// Periodic syncs for the backend's own ServiceGroup: each docset installed or updated is indexed again.
func syncService(
    engine: SyncEngine, logger: Logger, reindex: @escaping @Sendable (InstalledDocset) async -> Void
) -> SyncService {
    SyncService(engine: engine, interval: .seconds(6 * 3600), jitter: .seconds(600), logger: logger) { event in
        switch event {
        case .installed(let docset), .updated(let docset, from: _): await reindex(docset)
        default: break
        }
    }
}
