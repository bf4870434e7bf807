import DocSync
import DocSyncSupport
import Synchronization

/// What is installed now, as the server answers from it: the docsets by name and one search index over them,
/// re-read at most once per `refreshInterval` (a sync flips links atomically; a second or so later new requests see
/// it). A search index is kept while the installed versions stay the same, so its memory-mapped tables stay open.
///
/// Re-reading the root (every docset's link and `meta.json`: 15–37 ms for 52 docsets on a loaded machine) is kept
/// off busy requests: a view past `refreshInterval` but younger than twice that is still answered from while one
/// background thread reads the next (so at 500 requests/s no request waits for it, where before every request in
/// that window read the root itself); an older view, as on an idle server, is re-read by the request.
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
    /// The scan masks the search index keeps mapped between searches (`MaskBudget`): 8 MiB, a million entries'. The
    /// rest are read through a 64 KiB window at each scan that reaches them, so the server's resident set does not
    /// grow by 8 bytes for every entry installed (16 MB over two million; Benchmarks/README.md, serve-bench).
    static let maskBudget = 8 << 20
    private struct State {
        var current: Snapshot?
        /// A background re-read is under way.
        var refreshing = false
    }
    private let state = Mutex(State())

    package init(engine: SyncEngine, refreshInterval: Duration = .seconds(1)) {
        self.engine = engine
        self.refreshInterval = refreshInterval
    }

    /// The current view: re-read in the background when older than the refresh interval, by the caller when older
    /// than twice that (or none yet). A root that cannot be read gives the last view (or none installed).
    package func snapshot() -> Snapshot {
        let now = ContinuousClock.now
        let (current, refresh) = state.withLock { state -> (Snapshot?, Bool) in
            guard let current = state.current, now - current.readAt < refreshInterval * 2 else { return (nil, false) }
            guard now - current.readAt >= refreshInterval, !state.refreshing else { return (current, false) }
            state.refreshing = true
            return (current, true)
        }
        if refresh {
            WorkerThread.start(name: "docsync-docsets") { [self] in
                _ = read(startedAt: ContinuousClock.now)
                state.withLock { $0.refreshing = false }
            }
        }
        return current ?? read(startedAt: now)
    }

    /// Reads the root and makes it the current view (unless a read started later already did).
    private func read(startedAt now: ContinuousClock.Instant) -> Snapshot {
        let installed = (try? engine.installedDocsets()) ?? state.withLock { $0.current?.docsets } ?? []
        return state.withLock { state in
            if let current = state.current, current.readAt >= now { return current }
            let sorted = installed.sorted { $0.name < $1.name }
            let index: DocsetIndex
            if let current = state.current, current.docsets.map(\.path) == sorted.map(\.path) {
                index = current.index
            } else {
                index = DocsetIndex(
                    docsets: sorted.map {
                        IndexedDocset(name: $0.name, version: $0.version, path: $0.path, keywords: $0.keywords)
                    },
                    stateDirectory: engine.configuration.state, groups: engine.configuration.groups,
                    splitEntries: DocsetIndex.defaultSplitEntries, maskBudget: Self.maskBudget)
            }
            let fresh = Snapshot(docsets: sorted, index: index, readAt: now)
            state.current = fresh
            return fresh
        }
    }
}
