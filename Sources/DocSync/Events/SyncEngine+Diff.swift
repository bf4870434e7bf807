// What changed between two versions of a docset, for indexing backends that reindex only that.

internal import DocSyncInstall
internal import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

extension SyncEngine {
    /// What changed in the docset `docset` between two versions the root's change log names (``DocsetDiff``):
    /// pages added, removed or modified (by the SHA-256 of their bytes) and index entries added or removed.
    ///
    /// `from` and `to` name versions as the log shows them: a publisher version (``DocsetChange/to``), or a version
    /// folder (``DocsetChange/toVersionID``, `NAME@ID`, or its `ID`) where a version was installed more than once.
    /// Default: the docset's last change (`from` nil for a first install: every page and entry is added). Works after
    /// the versions' files were pruned, for as long as the log names them (`[changes] keep`), and for a user who may
    /// only read the root; reads on a thread of its own, in constant memory but for the differences.
    ///
    /// Throws ``DocsetDiffError``: an unknown docset or version, one that needs its version ID, a version without a
    /// record of its content (installed before docsync kept one, or adopted), or an unreadable log.
    public func diff(_ docset: String, from: String? = nil, to: String? = nil) async throws(DocsetDiffError)
        -> DocsetDiff
    {
        let root = configuration.root
        return try await WorkerThread.run(name: "docsync-diff") { () throws(DocsetDiffError) in
            try Self.diff(root: root, docset: docset, from: from, to: to)
        }
    }

    static func diff(root: String, docset: String, from: String?, to: String?) throws(DocsetDiffError) -> DocsetDiff {
        let records: [ChangeRecord]
        do {
            records = try ChangeLogReader(root: root).read(since: nil).records
        } catch {
            throw DocsetDiffError(kind: .unreadable, message: "change log: \(error)")
        }
        let sides = records.map {
            DiffVersions.Record(
                docset: $0.docset, from: $0.from.map { DiffVersions.Side(version: $0.version, folder: $0.folder) },
                to: $0.to.map { DiffVersions.Side(version: $0.version, folder: $0.folder) })
        }
        let (older, newer) = try DiffVersions.resolve(docset: docset, from: from, to: to, records: sides).get()
        let oldFD = try older.map { side throws(DocsetDiffError) in try openContent(root: root, side, docset) }
        defer { if let oldFD { close(oldFD) } }
        let newFD = try openContent(root: root, newer, docset)
        defer { close(newFD) }
        var pages: [DocsetDiff.Page] = []
        var entries: [DocsetDiff.Entry] = []
        do {
            try VersionContentDiff.diff(
                old: oldFD, new: newFD, names: (older?.folder ?? "-", newer.folder)
            ) { change in
                switch change {
                case .page(let page, let kind):
                    pages.append(DocsetDiff.Page(page: page, change: DocsetDiff.Change(rawValue: kind.rawValue)!))
                case .entry(let entry, let added):
                    entries.append(
                        DocsetDiff.Entry(
                            name: entry.name, type: entry.type, rawType: entry.rawType, page: entry.page,
                            fragment: entry.fragment, change: added ? .added : .removed))
                }
                return true
            }
        } catch {
            throw DocsetDiffError(kind: .unreadable, message: "\(error)")
        }
        return DocsetDiff(
            docset: docset, from: older.map { DocsetDiff.Version(version: $0.version, versionID: $0.folder) },
            to: DocsetDiff.Version(version: newer.version, versionID: newer.folder), pages: pages, entries: entries)
    }

    /// The content record of `side` (see `VersionContent`), open for reading.
    private static func openContent(root: String, _ side: DiffVersions.Side, _ docset: String) throws(DocsetDiffError)
        -> Int32
    {
        let fd: Int32?
        do {
            fd = try VersionContent.open(root: root, folder: side.folder)
        } catch {
            throw DocsetDiffError(kind: .unreadable, message: "\(error)")
        }
        guard let fd else {
            let version = side.version.isEmpty ? side.folder : "\(side.version) (\(side.folder))"
            throw DocsetDiffError(
                kind: .noRecord,
                message: "version \(version.escapingControlCharacters) of \(docset.escapingControlCharacters) has no "
                    + "record of its content (installed before docsync kept one, or adopted): reinstall it, or "
                    + "reindex the whole docset")
        }
        return fd
    }
}
