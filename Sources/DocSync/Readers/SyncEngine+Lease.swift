internal import DocSyncInstall

extension SyncEngine {
    /// Leases the version `<root>/<name>.docset` points at now (see ``DocsetLease``): it and its derived search
    /// index stay until the lease is released or its process ends, even when syncs replace or remove the docset
    /// meanwhile. Any number of leases, in any processes, may hold one version. Waits for nothing but a prune in
    /// progress (never for a running sync), on a thread of its own.
    ///
    /// Throws a ``SyncFailure``: ``SyncFailure/Code/notInstalled`` when there is no such docset (the message names
    /// the nearest installed name), ``SyncFailure/Code/foreignFolder`` for a `NAME.docset` that is neither a folder
    /// nor docsync's link, ``SyncFailure/Code/io`` when the root cannot be read.
    public func lease(_ name: String) async throws(SyncFailure) -> DocsetLease {
        let hold: VersionLease
        do {
            hold = try await installer.lease(name: name)
        } catch {
            if case .notInstalled = error, let known = try? installer.installedDocsets().map(\.name),
                let unknown = UnknownDocsetError.check(requested: [name], known: known)
            {
                throw SyncFailure(code: .notInstalled, message: unknown.description)
            }
            throw SyncFailure(error)
        }
        return DocsetLease(hold, docset: InstalledDocset(installer.record(name: name, path: hold.path)))
    }
}

extension SyncEngine {
    /// A search over the leased version only: the version the lease holds, whatever is installed now. Its derived
    /// index (in the state folder) is kept while the lease is held, and built on the first search if missing.
    public func index(_ lease: DocsetLease) -> DocsetIndex {
        DocsetIndex(docsets: [Self.indexed(lease.docset)], stateDirectory: configuration.state)
    }
}
