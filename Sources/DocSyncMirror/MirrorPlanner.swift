import Foundation

/// The pure half of a publish: from what was published before, what is installed now and the pool's archive
/// folders, the next published state and the archive folders that may be deleted.
package enum MirrorPlanner {
    package struct Plan: Sendable, Equatable {
        package var state: MirrorState
        /// Archive folders (`<sha256>`) no feed names whose grace period has passed.
        package var expired: [String]
        /// Docsets whose feed file must go (no longer installed).
        package var dropped: [String]
    }

    /// - Parameters:
    ///   - installed: the newest version of every docset to publish (one per name).
    ///   - pool: the archive folders present in `archives/` now (leftovers of an interrupted publish included).
    ///   - keep: versions per docset a feed names (the newest plus `keep - 1` older ones).
    ///   - held: docsets still installed whose newest archive could not be had this time: their feed keeps naming
    ///     the versions published before (those whose archive folder is in the pool), never dropped.
    package static func plan(
        previous: MirrorState, installed: [MirrorVersion], held: Set<String> = [], pool: Set<String>, keep: Int,
        grace: TimeInterval, now: Date
    ) -> Plan {
        var state = MirrorState()
        for name in held where !installed.contains(where: { $0.name == name }) {
            let kept = (previous.docsets[name] ?? []).filter { pool.contains($0.sha256) }
            if !kept.isEmpty { state.docsets[name] = kept }
        }
        for version in installed {
            var versions = [version]
            for old in previous.docsets[version.name] ?? []
            where old.sha256 != version.sha256 && old.dashVersion != version.dashVersion
                && versions.count < max(1, keep)
            {
                versions.append(old)
            }
            state.docsets[version.name] = versions
        }
        let named = state.named
        var expired: [String] = []
        for folder in pool.union(previous.named).union(previous.retired.keys) where !named.contains(folder) {
            let since = previous.retired[folder] ?? now
            if now.timeIntervalSince(since) >= grace, pool.contains(folder) {
                expired.append(folder)
            } else if pool.contains(folder) {
                state.retired[folder] = since
            }
        }
        state.updated = state.docsets == previous.docsets ? (previous.updated ?? now) : now
        let dropped = previous.docsets.keys.filter { state.docsets[$0] == nil }.sorted()
        return Plan(state: state, expired: expired.sorted(), dropped: dropped)
    }
}
