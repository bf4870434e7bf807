// What readers and indexing backends get: derived search indexes, local installs, leases, verification.

import DocSyncIndex
package import DocSyncInstall
internal import DocSyncSupport

extension SyncEngine {
    /// A read-only search over every docset installed now (see `DocsetIndex`). Derived indexes missing from the
    /// state folder (docsets installed by another tool, or before docsync built them) are built on first search,
    /// or ahead of it by `DocsetIndex.prepare()`. Throws a ``SyncFailure`` when the root cannot be read, like
    /// ``installedDocsets()``.
    public func index() throws(SyncFailure) -> DocsetIndex {
        DocsetIndex(
            docsets: try installedDocsets().map(Self.indexed), stateDirectory: configuration.state,
            groups: configuration.groups)
    }

    static func indexed(_ docset: InstalledDocset) -> IndexedDocset {
        IndexedDocset(name: docset.name, version: docset.version, path: docset.path, keywords: docset.keywords)
    }

    /// Builds the derived search index of a docset just installed or updated, on a thread of its own, then emits
    /// `.indexed` with its entry count (or `.indexFailed`: the docset itself is installed and usable).
    func buildIndex(for report: InstalledDocset, emit: @escaping @Sendable (SyncEvent) -> Void) async {
        let docset = Self.indexed(report)
        let state = configuration.state
        let result: Result<Int, DocsetIndexError> = await withCheckedContinuation { continuation in
            WorkerThread.start(name: "docsync-index", stackSize: 1 << 20) {
                continuation.resume(
                    returning: Result { () throws(DocsetIndexError) in
                        try DocsetIndex.prepare(docset, stateDirectory: state)
                    })
            }
        }
        switch result {
        case .success(let entries): emit(.indexed(name: report.name, version: report.version ?? "", entries: entries))
        case .failure(let error): emit(.indexFailed(name: report.name, reason: error.description))
        }
    }

    /// Deletes derived indexes (name and text) of versions that are no longer installed, except those of leased versions (see
    /// ``lease(_:)``): a backend reading a leased version may search it.
    func removeUnusedIndexes() { removeUnusedIndexes(installed: try? installedDocsets()) }

    /// `removeUnusedIndexes()` keeping the indexes of `installed` (nil: the root could not be read, nothing goes).
    func removeUnusedIndexes(installed: [InstalledDocset]?) {
        guard let installed else { return }
        let leased = installer.leasedVersionPaths().map { IndexedDocset(name: "", version: nil, path: $0) }
        let keeping = installed.map(Self.indexed) + leased
        DocsetIndex.removeUnused(stateDirectory: configuration.state, keeping: keeping)
        FullTextStore.removeUnused(stateDirectory: configuration.state, keeping: keeping)
    }
}

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
    ///   - layout: how the docset keeps its documents (default: the configuration's `[install] layout` for
    ///     `name`).
    ///   - fullText: whether to build its text index too, after it is published (default: the configuration's
    ///     `[search] full_text` for `name`).
    /// - Returns: the installed docset; its derived index is ready unless the index could not be read (the
    ///   docset is installed regardless, and a search reports that docset's failure).
    @discardableResult
    public func install(
        archive: String, name: String, version: String? = nil, title: String? = nil,
        layout: InstalledDocset.Layout? = nil, fullText: Bool? = nil
    ) async throws(SyncFailure) -> InstalledDocset
    {
        let lock = try await waitForExclusion()
        defer { withExtendedLifetime(lock) {} }
        let installed: InstalledDocset
        let indexAhead = DerivedIndexAhead(stateDirectory: configuration.state)  // built beside the publish
        do {
            var request = InstallRequest(name: name, title: title, version: version)
            request.layout = layout ?? configuration.install.layout(of: name)
            let record = try await installer.install(archive: archive, as: request, whenPrepared: indexAhead.start)
            installed = InstalledDocset(record)
        } catch {
            await indexAhead.finished()
            throw SyncFailure(error, url: nil)
        }
        await indexAhead.finished()
        let docset = Self.indexed(installed)
        let state = configuration.state
        _ = try? await BlockingPool.shared.perform(refused: { DocsetIndexError.io(docset.name, "\($0)") }) {
            () throws(DocsetIndexError) in try DocsetIndex.prepare(docset, stateDirectory: state)
        }
        removeUnusedIndexes()
        if fullText ?? configuration.search.fullText(of: name) {
            await Self.buildTextIndex(docset, stateDirectory: state, emit: { _ in })
        }
        return installed
    }
}

extension SyncEngine {
    /// Leases the version `<root>/<name>.docset` points at now (see ``DocsetLease``): it and its derived search
    /// index stay until the lease is released or its process ends, even when syncs replace or remove the docset
    /// meanwhile. Any number of leases, in any processes, may hold one version. Waits for nothing but a prune in
    /// progress (never for a running sync), on a thread of its own.
    ///
    /// `NAME@VERSION` leases that version of a docset kept side by side (``resolvedName(_:)``).
    ///
    /// Throws a ``SyncFailure``: ``SyncFailure/Code/notInstalled`` when there is no such docset (the message names
    /// the nearest installed name, or the installed versions), ``SyncFailure/Code/foreignFolder`` for a
    /// `NAME.docset` that is neither a folder nor docsync's link, ``SyncFailure/Code/io`` when the root cannot be
    /// read.
    public func lease(_ address: String) async throws(SyncFailure) -> DocsetLease {
        let name = try resolvedName(address)
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

extension SyncEngine {
    /// Compares installed docsets with the manifests recorded at install (`docsync verify`). A tarix docset's
    /// archive and index are hashed like every file, and its index is then checked against its archive in full
    /// (`TarixVerifier`: every record located where the index says, every document indexed).
    package func verify(names: [String] = []) async throws -> [DocsetVerification] {
        var resolved: [String] = []
        for name in names { resolved.append(try resolvedName(name)) }
        let results = try await installer.verify(names: resolved)
        return await WorkerThread.run(name: "docsync-verify-tarix", stackSize: 1 << 20) {
            results.map { result in
                guard result.status == .intact, let path = result.path else { return result }
                guard let problem = TarixStore.check(docsetPath: path) else { return result }
                return DocsetVerification(name: result.name, path: path, status: .damaged([problem]))
            }
        }
    }

    /// `sync --repair`: docsets the plan would leave unchanged but whose tree is damaged are reinstalled through the
    /// normal download-and-publish path (a fresh download: archives are not kept).
    func repairing(_ plan: SyncPlan) async -> SyncPlan {
        let unchanged = plan.actions.compactMap { action -> String? in
            if case .unchanged(let candidate, _) = action { return candidate.name }
            return nil
        }
        guard !unchanged.isEmpty, let results = try? await verify(names: unchanged) else { return plan }
        let damaged = Set(results.filter(\.isDamaged).map(\.name))
        return SyncPlan(
            actions: plan.actions.map { action in
                if case .unchanged(let candidate, let installed) = action, damaged.contains(candidate.name) {
                    return .update(candidate, from: installed)
                }
                return action
            })
    }

    /// The docsets the plan leaves unchanged whose installed version lacks, or has changed, a file every reader
    /// needs (`Installer.checkEssentials`: an lstat per file against the install manifest), with what is wrong.
    func damagedEssentials(_ plan: SyncPlan) async -> [String: [String]] {
        let unchanged = plan.actions.compactMap { action -> String? in
            if case .unchanged(let candidate, _) = action { return candidate.name }
            return nil
        }
        guard !unchanged.isEmpty, let results = try? await installer.checkEssentials(names: unchanged) else {
            return [:]
        }
        var damaged: [String: [String]] = [:]
        for result in results { if case .damaged(let problems) = result.status { damaged[result.name] = problems } }
        return damaged
    }
}

extension SyncEngine {
    /// The state folder's sync exclusion, waiting for a sync in progress; a failure to take it as a `SyncFailure`.
    func waitForExclusion() async throws(SyncFailure) -> SyncExclusion {
        do {
            return try await SyncExclusion.acquire(stateDirectory: configuration.state, wait: true)
        } catch {
            throw SyncFailure(error)
        }
    }
}

extension SyncEngine {
    /// The installed docset `address` stands for: `NAME` as it is, `NAME@VERSION` as the docset of that name (a
    /// version kept side by side) or as `NAME` when `NAME` holds that version (the newest). Throws
    /// ``SyncFailure/Code/notInstalled`` naming the installed versions for a `NAME@VERSION` of an installed `NAME`
    /// that is not installed; returns `address` unchanged otherwise (the caller reports an unknown name).
    package func resolvedName(_ address: String) throws(SyncFailure) -> String {
        guard DocsetAddress.split(address) != nil, let installed = try? installedDocsets(),
            !installed.contains(where: { $0.name == address })
        else { return address }
        if let docset = DocsetAddress.resolve(address, in: installed) { return docset.name }
        if let problem = DocsetAddress.problem(address, in: installed) {
            throw SyncFailure(code: .notInstalled, message: problem)
        }
        return address
    }
}

extension SyncEngine {
    /// Leases the versions `change` names (its ``DocsetChange/fromVersionID`` and ``DocsetChange/toVersionID``), so
    /// a backend reads the old and new pages while it reindexes: no sync, `remove` or prune deletes either folder
    /// until the lease is released. A side whose folder was already pruned is nil. Throws a ``SyncFailure`` (`io`)
    /// when the root cannot be read.
    public func lease(_ change: DocsetChange) async throws(SyncFailure) -> DocsetChangeLease {
        var held: [DocsetLease?] = []
        for version in [change.fromVersionID, change.toVersionID] {
            guard let version else {
                held.append(nil)
                continue
            }
            do {
                let hold = try await installer.lease(version: version)
                held.append(
                    hold.map {
                        DocsetLease($0, docset: InstalledDocset(installer.record(name: change.docset, path: $0.path)))
                    })
            } catch {
                held.compactMap { $0 }.forEach { $0.release() }
                throw SyncFailure(error)
            }
        }
        return DocsetChangeLease(change: change, from: held[0], to: held[1])
    }
}
