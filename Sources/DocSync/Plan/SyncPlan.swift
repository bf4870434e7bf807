/// What a sync will do, per docset: the pure result of comparing what feeds offer with what is installed.
package struct SyncPlan: Sendable, Equatable {
    package enum Action: Sendable, Equatable {
        /// Not installed yet.
        case install(DocsetCandidate)
        /// Installed, and the feed offers a newer version (or the pinned one).
        case update(DocsetCandidate, from: InstalledDocset)
        /// Installed and current.
        case unchanged(DocsetCandidate, installed: InstalledDocset)
        /// Installed by docsync, but no feed offers it any more; removed only when pruning is on.
        case orphan(InstalledDocset, prune: Bool)
        /// The feed offers something that cannot be planned (e.g. a pinned version it does not have).
        case skipped(name: String, feed: String, reason: String)

        package var name: String {
            switch self {
            case .install(let c), .update(let c, _), .unchanged(let c, _): c.name
            case .orphan(let installed, _): installed.name
            case .skipped(let name, _, _): name
            }
        }
    }

    package var actions: [Action]

    package init(actions: [Action]) { self.actions = actions }
}
