internal import DocSyncSupport

/// Decides, per docset, whether to install, update, keep or prune. Pure: no I/O, so every rule is a table row.
package enum Planner {
    /// - Parameters:
    ///   - offers: per feed that was read successfully, the newest candidate of each docset it offers (or the
    ///     pinned one), already selected by `CandidateSelector`; skipped entries carry their reason.
    ///   - failedFeeds: feeds that could not be read this time; their installed docsets are never pruned.
    ///   - installed: what the root holds.
    package static func plan(
        offers: [DocsetCandidate], skipped: [SyncPlan.Action] = [], failedFeeds: Set<String> = [],
        installed: [InstalledDocset], prune: Bool
    ) -> SyncPlan {
        var actions: [SyncPlan.Action] = []
        var claimedNames: [String: String] = [:]  // folder name → feed that claimed it
        var matchedInstalled = Set<String>()

        for var candidate in offers {
            // A docset keeps its folder once installed: match by identifier first, then by name.
            let current =
                candidate.identifier.flatMap { id in installed.first { $0.identifier == id } }
                ?? installed.first {
                    $0.name == candidate.name && ($0.identifier == nil || candidate.identifier == nil)
                }
            if let current { candidate.name = current.name }

            if let owner = claimedNames[candidate.name] {
                actions.append(
                    .skipped(
                        name: candidate.name, feed: candidate.feed,
                        reason: "folder name \"\(candidate.name).docset\" is already used by \(owner); "
                            + "set `name` for this feed"))
                continue
            }
            claimedNames[candidate.name] = candidate.feed

            guard let current else {
                actions.append(.install(candidate))
                continue
            }
            matchedInstalled.insert(current.name)
            if candidate.shouldReplace(current.plannedVersion, updated: current.updated) {
                actions.append(.update(candidate, from: current))
            } else {
                actions.append(.unchanged(candidate, installed: current))
            }
        }
        actions += skipped
        let skippedNames = Set(skipped.map(\.name))
        // meta.json stores feed URLs without credentials: compare them that way.
        let failed = Set(failedFeeds.map(\.redactingCredentials))
        for docset in installed where !matchedInstalled.contains(docset.name) && !skippedNames.contains(docset.name) {
            guard let feed = docset.owningFeed, !failed.contains(feed.redactingCredentials) else { continue }
            actions.append(.orphan(docset, prune: prune))
        }
        return SyncPlan(actions: actions)
    }
}
