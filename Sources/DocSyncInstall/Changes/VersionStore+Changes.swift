import DocSyncSupport
import Foundation

/// The change log's part of each step that changes the root (see `ChangeLogWriter` for the rule): `publish`,
/// `unpublish` and `adopt` call `recordFlip` before their flip and `settleFlip` / `rollbackFlip` after it.
extension VersionStore {
    /// Opens the log (once per store) under the lock.
    func changeLog() throws(InstallError) -> ChangeLogWriter {
        if let changes { return changes }
        do {
            let log = try ChangeLogWriter(state: state.base)
            changes = log
            return log
        } catch {
            throw Self.installError(error)
        }
    }

    /// Under the lock, before any change: the log's last record agrees with the links again, and records older than
    /// `changesKeep` are dropped (with the summaries of the versions no kept record names).
    func recoverChanges() throws(InstallError) {
        let log = try changeLog()
        do {
            try log.recover { record in currentVersion(of: record.docset) != record.from?.folder }
            guard var named = try log.trim(keep: changesKeep) else { return }
            named.formUnion(try referencedVersions())
            for folderName in [VersionSummary.folderName, VersionContent.folderName] {
                let summaries = try log.folder.directory(folderName, create: true)
                for entry in try summaries.entries() where !named.contains(entry.name) {
                    try? summaries.unlink(entry.name)
                }
            }
        } catch let error as ChangeLogProblem {
            throw Self.installError(error)
        } catch {
            throw .io(error as? SystemError ?? SystemError("changes", path: state.path, code: EIO))
        }
    }

    /// Appends the record of `docset` going from the version folder `previous` to `version` (nil: none), unless it
    /// is no change; `durable`: fdatasync'd here (no `syncfs` follows). Returns whether a record was appended.
    @discardableResult
    func recordFlip(
        _ docset: String, from previous: String?, to version: String?, summary known: VersionSummary? = nil,
        durable: Bool
    ) throws(InstallError) -> Bool {
        let log = try changeLog()
        let old = previous.map { summary(of: $0) }
        // The new version's manifest is read once, in one pass for its digest and its content record's pages.
        // Not `durable` (publish): the `syncfs` before the flip makes the summary and the record durable.
        var new = known
        if let version {
            let content = PendingContent(store: self, folder: version)
            var sorted: SortedManifest?
            if new == nil {
                new = summary(of: version, reading: &sorted, collectingPagesInto: content?.manifestPages)
            }
            if sorted == nil { content?.manifestPagesRead = false }
            if let new { try writeSummary(new, for: version, durable: durable) }
            content?.write(durable: durable)
        }
        let sameContent = old != nil && new != nil && !old!.digest.isEmpty && old!.digest == new!.digest
        guard
            let record = ChangeRecord.change(
                docset: docset, from: zip(previous, old).map { ChangeRecord.Side(version: $1.version, folder: $0) },
                to: zip(version, new).map { ChangeRecord.Side(version: $1.version, folder: $0) },
                sameContent: sameContent, at: Int64(Date().timeIntervalSince1970 * 1000))
        else { return false }
        do {
            try log.append(record)
            if durable { try log.makeDurable() }
        } catch {
            log.rollback()
            throw Self.installError(error)
        }
        return true
    }

    /// The flip of the record appended last happened.
    func settleFlip() { changes?.settle() }

    /// The flip of the record appended last did not happen.
    func rollbackFlip() { changes?.rollback() }

    /// The summary of a version folder: kept beside the log, else read from its `meta.json` and manifest.
    func summary(of folder: String) -> VersionSummary {
        var sorted: SortedManifest?
        return summary(of: folder, reading: &sorted)
    }

    /// As `summary(of:)`; `sorted` is the manifest when it was read for the digest (in bounded memory:
    /// `SortedManifest`), and then `pages` has its page lines (`SortedManifest.contentDigest(collectingPagesInto:)`).
    private func summary(
        of folder: String, reading sorted: inout SortedManifest?, collectingPagesInto pages: ContentLines? = nil
    ) -> VersionSummary {
        if let summaries = try? changeLog().folder.existingDirectory(VersionSummary.folderName),
            let bytes = try? summaries.readFile(folder, limit: 1 << 16), let summary = VersionSummary(decoding: bytes)
        {
            return summary
        }
        let version = (try? versions.base.existingDirectory(folder)).flatMap { Self.publisherVersion(in: $0) }
        sorted = sortedManifest(of: folder)
        let digest = sorted.flatMap { try? $0.contentDigest(collectingPagesInto: pages) }
        if digest == nil { sorted = nil }  // no page lines either: read again for the record (or not written)
        return VersionSummary(version: version ?? "", digest: digest ?? "")
    }

    /// `meta.json`'s version of the docset folder `tree` (nil: none, or no readable `meta.json`).
    static func publisherVersion(in tree: SafeDirectory) -> String? {
        guard let bytes = try? tree.readFile(DocsetMetadata.fileName, limit: 1 << 20),
            let meta = DocsetMetadata.decode(bytes)
        else { return nil }
        return meta.extra?.docsync?.version ?? meta.version
    }

    /// The content record of the version folder `folder` (`VersionContent`) while it is made, when the folder has
    /// none yet: its pages from the manifest (collected into `manifestPages` by the pass that computes the
    /// version's digest; or the scan, for a tarix store), its entries from the scan (`ContentScan`). Both sections
    /// are sorted through scratch files in the state folder and the record is written through a small buffer:
    /// memory does not grow with the pages or the entries. Best effort: a version without one cannot be diffed, and
    /// says so; the change itself goes on.
    private final class PendingContent {
        let store: VersionStore
        let folder: String
        let contents: SafeDirectory
        let tree: SafeDirectory
        let pages: ContentLines
        /// The pages section when it comes from the manifest (nil: a tarix store's, already read).
        let manifestPages: ContentLines?
        /// False when the digest's pass did not read the manifest (a summary kept from before): read it here.
        var manifestPagesRead = true

        init?(store: VersionStore, folder: String) {
            guard let log = try? store.changeLog(),
                let contents = try? log.folder.directory(VersionContent.folderName, create: true),
                !contents.exists(folder), let tree = try? store.versions.base.existingDirectory(folder)
            else { return nil }
            self.store = store
            self.folder = folder
            self.contents = contents
            self.tree = tree
            let pages = ContentLines(keyOffset: VersionContent.pageKeyOffset, spillingInto: store.state.base)
            self.pages = pages
            let tarix = try? withExtendedLifetime(tree) {
                try ContentScan.appendTarixPageLines(path: tree.path, fd: tree.fd, to: pages)
            }
            guard let tarix else { return nil }
            manifestPages = tarix ? nil : pages
        }

        /// Completes the pages, reads the entries and writes the record; `durable`: fsync'd here (no `syncfs`
        /// follows).
        func write(durable: Bool) {
            do {
                if manifestPages != nil, !manifestPagesRead {
                    guard let manifest = store.sortedManifest(of: folder) else { return }
                    try manifest.appendPageLines(to: pages)
                }
                try pages.seal()
            } catch {
                return
            }
            let entries = ContentLines(spillingInto: store.state.base)
            guard (try? ContentScan.appendEntryLines(path: tree.path, to: entries)) != nil else { return }
            try? contents.writeFileAtomically(folder, durable: durable) { (file, path) throws(SystemError) in
                let out = ContentWriter { (bytes) throws(SystemError) in try LinuxFS.writeAll(file, bytes, path: path) }
                try VersionContent.write(pages: pages, entries: entries, to: out)
            }
        }
    }

    private func writeSummary(_ summary: VersionSummary, for folder: String, durable: Bool) throws(InstallError) {
        do {
            let summaries = try changeLog().folder.directory(VersionSummary.folderName, create: true)
            try summaries.writeFileAtomically(folder, summary.encoded, durable: durable)
        } catch let error as InstallError {
            throw error
        } catch {
            throw .io(error as? SystemError ?? SystemError("write", path: folder, code: EIO))
        }
    }

    private static func installError(_ problem: ChangeLogProblem) -> InstallError {
        switch problem {
        case .io(let error): return .io(error)
        case .corrupt(let path, let reason):
            return .io(SystemError("reading change log (\(reason))", path: path, code: EIO))
        }
    }
}

private func zip<A, B>(_ a: A?, _ b: B?) -> (A, B)? {
    guard let a, let b else { return nil }
    return (a, b)
}
