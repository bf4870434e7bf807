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

    /// Completes each staged docset for Zeal before it is published: its index (`ZealPreparation`), then its
    /// document folders and start page (`ReaderLayoutPreparation`). A docset no reader could open fails the install
    /// (`InstallError.unreadableDocset`).
    package static let prepareTree: TreePreparation = { fd, path, extra in
        var steps = try ZealPreparation.prepare(docsetFD: fd, path: path)
        let outcome: ReaderLayoutPreparation.Outcome
        do {
            outcome = try ReaderLayoutPreparation.prepare(
                docsetFD: fd, path: path, catalogIndexFilePath: extra["indexFilePath"]?.string)
        } catch let unreadable as ReaderLayoutPreparation.Unreadable {
            throw InstallError.unreadableDocset(unreadable.message)
        }
        steps += outcome.steps
        return PreparedTree(steps: steps, extra: outcome.indexFilePath.map { ["indexFilePath": .string($0)] } ?? [:])
    }

    static func indexed(_ docset: InstalledDocset) -> IndexedDocset {
        IndexedDocset(name: docset.name, version: docset.version, path: docset.path)
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

    /// Deletes derived indexes of versions that are no longer installed.
    /// Deletes derived indexes of versions that are no longer installed, except those of leased versions (see
    /// ``lease(_:)``): a backend reading a leased version may search it.
    func removeUnusedIndexes() {
        guard let installed = try? installedDocsets() else { return }
        let leased = installer.leasedVersionPaths().map { IndexedDocset(name: "", version: nil, path: $0) }
        DocsetIndex.removeUnused(stateDirectory: configuration.state, keeping: installed.map(Self.indexed) + leased)
    }
}
