package import DocSyncInstall

/// A hold on one installed version of a docset: while it is held, no sync, `remove` or `docsync` process prunes
/// that version's folder or its derived search index, whatever `install.grace_period` says; the first prune after
/// it is released does. Obtained from ``SyncEngine/lease(_:)``.
///
/// Release it explicitly with ``release()`` when the backend is done reading; it is also released when the value
/// is deinitialised, and by the kernel when the process ends in any way (SIGKILL included): a lease is an
/// `flock(2)` on `<root>/.docsync/leases/NAME@ID`, never a record that could outlive its holder.
///
/// ```swift
/// let lease = try await engine.lease("Swift")
/// defer { lease.release() }
/// let page = try await lease.contents(of: "index.html")  // from lease.path, however many syncs run meanwhile
/// ```
public final class DocsetLease: Sendable {
    private let hold: VersionLease
    /// The leased version as installed: ``InstalledDocset/path`` is its immutable version folder, and
    /// ``InstalledDocset/indexPath`` its `docSet.dsidx`, both unchanged until the lease is released.
    public let docset: InstalledDocset

    package init(_ hold: VersionLease, docset: InstalledDocset) {
        self.hold = hold
        self.docset = docset
    }

    deinit { hold.release() }

    /// The docset's name (`<root>/<name>.docset`).
    public var name: String { docset.name }

    /// The leased version folder (`<root>/.docsync/versions/NAME@ID`, resolved); a docset docsync did not install
    /// is never pruned by docsync, and its lease's path is `<root>/NAME.docset`.
    public var path: String { docset.path }

    /// The version's documents folder: ``path`` + `/Contents/Resources/Documents`, where the pages its index names
    /// live (the folder ``contents(of:maximumBytes:)`` reads below).
    public var documentsPath: String { "\(docset.path)/Contents/Resources/Documents" }

    /// True until ``release()`` (the version may be pruned afterwards).
    public var isHeld: Bool { hold.isHeld }

    /// Gives the version back to the pruner. Idempotent; the next sync past the grace period deletes it.
    public func release() { hold.release() }

    /// A page's bytes from the leased version; see ``InstalledDocset/contents(of:maximumBytes:)``.
    public func contents(of page: String, maximumBytes: Int = InstalledDocset.maximumDocumentBytes)
        async throws(DocumentError) -> [UInt8]
    {
        try await docset.contents(of: page, maximumBytes: maximumBytes)
    }
}
