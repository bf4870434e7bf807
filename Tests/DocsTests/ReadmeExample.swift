import DocSync
import DocSyncConfigFile

/// Syncs once, hands each new docset index to `reindex`, and lists what is installed.
func syncAndReindex(configFile: String, reindex: (String) -> Void) async throws {
    let engine = SyncEngine(configuration: try DocSyncConfigurationLoader().load(file: configFile))
    for try await event in engine.sync() {
        switch event {
        case .installed(let docset), .updated(let docset, from: _):
            reindex(docset.indexPath)  // <path>/Contents/Resources/docSet.dsidx, unchanged while you read it
        case .failed(let name, let failure):
            print("\(name): \(failure.code): \(failure)", failure.isTransient ? "(the next sync retries)" : "")
        case .summary(let summary) where !summary.isSuccess:
            print("\(summary.failed) docsets and \(summary.feedsFailed) feeds failed")
        default:
            break
        }
    }
    for docset in try engine.installedDocsets() { print(docset.name, docset.version ?? "-", docset.path) }
    // One read-only search over every installed docset (both index formats), ranked exact > prefix > substring.
    for hit in try await engine.index().search(SearchQuery("sym", types: ["Function"], limit: 5)).hits {
        print(hit.name, hit.type, hit.docset, hit.url)  // url: file:///…/Documents/page.html#fragment
    }
}
