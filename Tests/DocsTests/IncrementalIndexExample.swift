import DocSync

/// Brings a backend's index up to date from `cursor`, the last one it saved (nil: it never indexed): each installed
/// or updated docset is reindexed, each removed one dropped. A cursor the log no longer knows (forged, or older than
/// `[changes] keep`) means a full rescan. Returns the cursor to save; call it at start-up, then follow from it.
func catchUp(
    engine: SyncEngine, from cursor: String?, reindex: (String) async throws -> Void,
    drop: (String) async throws -> Void
) async throws -> String? {
    if let cursor {
        do {
            var last = cursor
            for try await change in engine.changes(since: cursor) {
                switch change.kind {
                case .installed, .updated: try await reindex(change.docset)
                case .removed: try await drop(change.docset)
                }
                last = change.cursor  // saved after each change: at-least-once, never a gap
            }
            return last
        } catch let error as ChangeLogError where error.kind != .unreadable {
            // Unknown or expired: rescan everything below.
        }
    }
    let start = try await engine.changeCursor()  // taken first: a change made during the scan is read next time
    for docset in try engine.installedDocsets() { try await reindex(docset.name) }
    return start
}
