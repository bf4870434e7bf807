internal import DocSyncInstall
internal import DocSyncSupport

extension SyncEngine {
    /// Installs a docset archive from a local file as `<root>/<name>.docset`, atomically, exactly as a sync installs
    /// a downloaded one (the same checks of every entry, the same `meta.json`, the replaced version kept for
    /// `install.grace_period`), then builds its derived search index. What `docsync install` does, for a backend
    /// that receives archives itself and needs neither the CLI nor a loopback server.
    ///
    /// The format (tgz, tar.bz2/xz/zst, tar, zip, xar) is detected from the content. Waits for a sync in progress
    /// (the state folder's lock), then runs on threads of its own. On any failure the installed version is
    /// unchanged. Throws a ``SyncFailure``: ``SyncFailure/Code/invalidArchive`` (an unsafe entry, unreadable, not a
    /// docset), ``SyncFailure/Code/invalidRequest`` (a name that cannot be a folder name),
    /// ``SyncFailure/Code/foreignFolder``, ``SyncFailure/Code/insufficientSpace``, ``SyncFailure/Code/io``.
    ///
    /// - Parameters:
    ///   - archive: the archive file's path.
    ///   - name: the docset's folder name without `.docset`.
    ///   - version: the version recorded in `meta.json` (and shown by `docsync status`).
    ///   - title: the human title (default: the name).
    /// - Returns: the installed docset; its derived index is ready unless the index could not be read (the
    ///   docset is installed regardless, and a search reports that docset's failure).
    @discardableResult
    public func install(archive: String, name: String, version: String? = nil, title: String? = nil)
        async throws(SyncFailure) -> InstalledDocset
    {
        let lock: SyncExclusion
        do {
            lock = try await SyncExclusion.acquire(stateDirectory: configuration.state, wait: true)
        } catch {
            throw SyncFailure(error)
        }
        defer { withExtendedLifetime(lock) {} }
        let installed: InstalledDocset
        do {
            let record = try await installer.install(
                archive: archive, as: InstallRequest(name: name, title: title, version: version))
            installed = InstalledDocset(record)
        } catch {
            throw SyncFailure(error, url: nil)
        }
        let docset = Self.indexed(installed)
        let state = configuration.state
        _ = try? await WorkerThread.run(name: "docsync-index", stackSize: 1 << 20) { () throws(DocsetIndexError) in
            try DocsetIndex.prepare(docset, stateDirectory: state)
        }
        removeUnusedIndexes()
        return installed
    }
}
