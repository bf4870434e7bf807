/// Leases on both versions a change names (``SyncEngine/lease(_:)-(DocsetChange)``), so a backend reindexing after
/// the change reads the old pages (to drop what they contributed) and the new ones, however many syncs and prunes
/// run meanwhile. Release it with ``release()``; it is also released when deinitialised, and by the kernel when the
/// process ends.
///
/// ```swift
/// for try await change in engine.changes(since: cursor) {
///     let lease = try await engine.lease(change)
///     defer { lease.release() }
///     let diff = try await engine.diff(change.docset, from: change.fromVersionID, to: change.toVersionID)
///     for page in diff.pages where page.change != .removed {
///         let bytes = try await lease.to?.contents(of: page.page)
///         // …
///     }
/// }
/// ```
public final class DocsetChangeLease: Sendable {
    /// The change leased.
    public let change: DocsetChange
    /// The version before the change (``DocsetChange/fromVersionID``); nil when the change has none (an install),
    /// or its folder was already pruned (``SyncEngine/diff(_:from:to:)`` still says what changed).
    public let from: DocsetLease?
    /// The version after the change (``DocsetChange/toVersionID``); nil when the change has none (a removal), or
    /// its folder was already pruned (a later change replaced it).
    public let to: DocsetLease?

    init(change: DocsetChange, from: DocsetLease?, to: DocsetLease?) {
        self.change = change
        self.from = from
        self.to = to
    }

    /// Gives both versions back to the pruner. Idempotent.
    public func release() {
        from?.release()
        to?.release()
    }
}
