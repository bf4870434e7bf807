import DocSync
import Synchronization

/// What is installed now, as the server answers from it: the docsets by name and one search index over them,
/// re-read at most once per `refreshInterval` (a sync flips links atomically; a second later new requests see it).
/// A search index is kept while the installed versions stay the same, so its memory-mapped tables stay open.
package final class ServedDocsets: Sendable {
    /// One consistent view.
    package struct Snapshot: Sendable {
        /// The installed docsets, by name order.
        package var docsets: [InstalledDocset]
        /// The search over exactly these versions.
        package var index: DocsetIndex
        /// When it was read.
        var readAt: ContinuousClock.Instant

        /// The docset named `name` (exact, else ignoring case).
        package func docset(_ name: String) -> InstalledDocset? {
            docsets.first { $0.name == name } ?? docsets.first { $0.name.lowercased() == name.lowercased() }
        }
    }

    private let engine: SyncEngine
    /// The root folder (`<root>/<name>.docset`, `<root>/.docsync/versions/`).
    package var root: String { engine.configuration.root }
    private let refreshInterval: Duration
    private let state = Mutex<Snapshot?>(nil)

    package init(engine: SyncEngine, refreshInterval: Duration = .seconds(1)) {
        self.engine = engine
        self.refreshInterval = refreshInterval
    }

    /// The current view, re-read when older than the refresh interval. A root that cannot be read gives the last
    /// view (or none installed).
    package func snapshot() -> Snapshot {
        let now = ContinuousClock.now
        if let current = state.withLock({ $0 }), now - current.readAt < refreshInterval { return current }
        let installed = (try? engine.installedDocsets()) ?? state.withLock { $0?.docsets } ?? []
        return state.withLock { current in
            if let current, now - current.readAt < refreshInterval { return current }
            let sorted = installed.sorted { $0.name < $1.name }
            let index: DocsetIndex
            if let current, current.docsets.map(\.path) == sorted.map(\.path) {
                index = current.index
            } else {
                index = DocsetIndex(
                    docsets: sorted.map { IndexedDocset(name: $0.name, version: $0.version, path: $0.path) },
                    stateDirectory: engine.configuration.state, groups: engine.configuration.groups)
            }
            let fresh = Snapshot(docsets: sorted, index: index, readAt: now)
            current = fresh
            return fresh
        }
    }
}
