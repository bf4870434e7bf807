import DocSyncSupport
import Foundation

/// Installs docset archives into a root folder safely and atomically (see `VersionStore` for the layout and the
/// crash-safety argument, `EntryPolicy` for what an archive may contain).
///
/// All blocking work runs on dedicated threads, never on Swift's cooperative pool. Changes to a root are serialised
/// by a lock file, also across processes. Deleting replaced versions happens after their grace period, in the
/// background, after an install has finished — never between a deletion and the next extraction.
package final class Installer: Sendable {
    package let root: String
    package let configuration: InstallConfiguration
    private let background = WorkCounter()

    /// An installer for `root`. Each staged docset is completed for readers before it is published
    /// (`ReaderPreparation`), and a request with the tarix layout gets its store built (`TarixStore`).
    package init(root: String, configuration: InstallConfiguration = InstallConfiguration()) {
        self.root = root.hasPrefix("/") ? root : FileManager.default.currentDirectoryPath + "/" + root
        self.configuration = configuration
    }

    /// Makes the archive `<root>/<request.name>.docset`, all at once. On error nothing visible changes.
    package func install(archive: String, as request: InstallRequest) async throws(InstallError) -> InstallRecord {
        let source: FileArchiveSource
        do { source = try FileArchiveSource(path: archive) } catch { throw .io(error) }
        return try await install(source: source, as: request)
    }

    /// As `install(archive:as:)`, reading from any `ArchiveSource`.
    package func install(source: any ArchiveSource, as request: InstallRequest) async throws(InstallError)
        -> InstallRecord
    {
        try await install(source: source, as: request, whenPrepared: nil)
    }

    /// As `install(archive:as:)`, calling `whenPrepared` once the staged tree is extracted and checked (stage
    /// `extracted`: its index's entries are final, the index file is completed for Zeal next), and again once it is
    /// complete and final (`prepared`: extracted, checked and prepared, `meta.json` not yet written), before it is
    /// made durable and published: work that only reads the tree (the derived search index) can run beside the
    /// preparation and the publish. Called on the install thread; it must return at once (or nearly: a copy of the
    /// index). The install may still fail after either call.
    package func install(
        archive: String, as request: InstallRequest, whenPrepared: (@Sendable (PreparedVersion) -> Void)?
    ) async throws(InstallError) -> InstallRecord {
        let source: FileArchiveSource
        do { source = try FileArchiveSource(path: archive) } catch { throw .io(error) }
        return try await install(source: source, as: request, whenPrepared: whenPrepared)
    }

    /// As `install(archive:as:whenPrepared:)`, reading from any `ArchiveSource`.
    package func install(
        source: any ArchiveSource, as request: InstallRequest, whenPrepared: (@Sendable (PreparedVersion) -> Void)?
    ) async throws(InstallError) -> InstallRecord {
        if let problem = InstallRequest.problem(with: request.name) {
            throw .invalidName(request.name, reason: problem)
        }
        do {
            let (installed, garbage) = try await onThread("docsync-install") { () throws(InstallError) in
                try self.installBlocking(source, request, whenPrepared)
            }
            if garbage { emptyTrashInBackground() }
            return installed
        } catch {
            // The failed staging folder is in the trash now.
            emptyTrashInBackground()
            throw error
        }
    }

    /// Takes `<root>/<name>.docset` away atomically; its files are deleted after the grace period.
    package func remove(name: String) async throws(InstallError) {
        if let problem = InstallRequest.problem(with: name) { throw .invalidName(name, reason: problem) }
        let garbage = try await onThread("docsync-remove") { () throws(InstallError) in
            let store = try VersionStore(root: self.root)
            store.replaceForeign = self.configuration.replaceForeign
            store.changesKeep = self.configuration.changesKeep
            try store.lock()
            try store.recover()
            try store.unpublish(name)
            return try store.collectExpired(grace: self.configuration.gracePeriod)
        }
        if garbage { emptyTrashInBackground() }
    }

    /// Every `*.docset` in the root, as readers see it now, sorted by name. Takes no lock. The folders every docset's
    /// facts are read through (`.docsync/versions`, `.docsync/installs`, the root's real path) are opened once.
    package func installedDocsets() throws(InstallError) -> [InstallRecord] {
        guard FileManager.default.fileExists(atPath: root) else { return [] }
        let rootHandle = try DirectoryHandle.open(root)
        let folders = VersionFolders(rootHandle)
        var result: [InstallRecord] = []
        for entry in try rootHandle.entries() where entry.name.hasSuffix(".docset") && !entry.name.hasPrefix(".") {
            let stem = String(entry.name.dropLast(".docset".count))
            guard let (path, folder) = resolve(entry.name, in: rootHandle, folders: folders) else { continue }
            let meta = (try? folder?.readFile(DocsetMetadata.fileName, limit: 1 << 20)).flatMap { $0 }
                .flatMap { DocsetMetadata.decode($0) }
            result.append(InstallRecord(name: stem, path: path, meta: meta, host: hostRecord(of: path, in: folders)))
        }
        return result.sorted { $0.name < $1.name }
    }

    /// Waits until background deletions started so far have finished (a CLI calls this before exiting).
    package func waitForBackgroundWork() async {
        let background = self.background
        await WorkerThread.run(name: "docsync-wait") { background.waitUntilIdle() }
    }

    // MARK: Internals

    /// The host record of the version at `path` (`<root>/.docsync/versions/<NAME@ID>`), if any.
    func hostRecord(of path: String) -> HostRecord? {
        guard let rootHandle = try? DirectoryHandle.open(root) else { return nil }
        return hostRecord(of: path, in: VersionFolders(rootHandle))
    }

    private func hostRecord(of path: String, in folders: VersionFolders) -> HostRecord? {
        let version = (path as NSString).lastPathComponent
        guard VersionStore.isVersionName(version), let records = folders.hostRecords,
            let bytes = try? records.readFile(version, limit: 1 << 20)
        else { return nil }
        return HostRecord.decode(bytes)
    }

    /// The root's folders that `installedDocsets()` reads every docset's facts through, each opened once (nil:
    /// missing; a link is never followed).
    private struct VersionFolders {
        let versions: SafeDirectory?
        let hostRecords: SafeDirectory?
        /// The root's real path (versions are reported below it), resolved once.
        let realRoot: String?

        init(_ rootHandle: DirectoryHandle) {
            let state = try? rootHandle.base.existingDirectory(VersionStore.stateName)
            versions = (try? state?.existingDirectory("versions")) ?? nil
            hostRecords = (try? state?.existingDirectory(HostRecord.directoryName)) ?? nil
            if versions != nil, let resolved = realpath(rootHandle.path, nil) {
                realRoot = String(cString: resolved)
                free(resolved)
            } else {
                realRoot = nil
            }
        }
    }

    /// How Zeal's members of `meta` came to be, so that a lock reproduces them (installs from before the record
    /// kept `arrival` count as catalogue installs).
    /// Where the reader-layout preparation may create Zeal's `Documents` folder or link for Apple's layout.
    static let readerLayoutPaths = ["Contents/Resources/Documents", "Contents/Resources/Documents/Documentation"]

    static func arrival(_ meta: DocsetMetadata) -> ZealArrival {
        ZealArrival(kind: meta.extra?.docsync?.arrival ?? .catalog, feedURL: meta.feedURL, urls: meta.urls ?? [])
    }

    /// The folder readers reach through `linkName` (its path, and the folder opened when it is a version): a real
    /// folder as is; a symlink only when it is docsync's link into `.docsync/versions/` (one version component,
    /// `.docsync` and `versions` real folders), never elsewhere.
    private func resolve(_ linkName: String, in rootHandle: DirectoryHandle, folders: VersionFolders)
        -> (path: String, folder: SafeDirectory?)?
    {
        guard let st = try? rootHandle.status(linkName) else { return nil }
        if st.st_mode & S_IFMT == S_IFDIR {
            let path = "\(root)/\(linkName)"
            return (path, try? SafeDirectory.open(path))
        }
        let prefix = "\(VersionStore.stateName)/versions/"
        guard st.st_mode & S_IFMT == S_IFLNK, let target = rootHandle.linkTarget(linkName), target.hasPrefix(prefix),
            case let version = String(target.dropFirst(prefix.count)), VersionStore.isVersionName(version),
            let versions = folders.versions, let realRoot = folders.realRoot,
            let found = versions.status(version), found.st_mode & S_IFMT == S_IFDIR
        else { return nil }
        return ("\(realRoot)/\(target)", (try? versions.existingDirectory(version)) ?? nil)
    }

    private func installBlocking(
        _ source: any ArchiveSource, _ original: InstallRequest,
        _ whenPrepared: (@Sendable (PreparedVersion) -> Void)?
    ) throws(InstallError) -> (InstallRecord, Bool) {
        var request = original
        let store = try VersionStore(root: root)
        store.replaceForeign = configuration.replaceForeign
        store.changesKeep = configuration.changesKeep
        try store.lock()
        try store.recover()
        try store.checkReplaceable(request.name)
        try checkFreeSpace(for: source.byteCount ?? 0)
        var (stagingName, staging) = try store.makeStaging()
        let installed: InstallRecord
        var manifest: ManifestRecorder?
        let version = VersionStore.versionName(for: request.name)
        do throws(InstallError) {
            // The manifest `verify` compares against is written while extracting (beside the tree, never inside it).
            var recorder = try store.startManifest(for: stagingName)
            manifest = recorder
            // The archive's SHA-256 is hashed once: by the downloader when it is known (the request's, or the
            // growing source's), else while extracting.
            let known = request.archiveSHA256 != nil || source.providesSHA256
            let tarix = request.layout == .tarix
            var onePass: TarixOnePassOutcome?
            if tarix, source is FileArchiveSource || source is GrowingFileSource {
                // Read and inflated once (while it downloads, for a growing source), the tree outside Documents/
                // extracted from the store builder's walk — kept as it is when flushed at every record, else
                // re-encoded in a second attempt (the first stops at the first document). A refused index: a fresh
                // staging folder for two passes.
                var reencoding = false
                while true {
                    let attempt = try installTarixInOnePass(
                        source, store: store, staging: staging, recorder: recorder, request: request,
                        reencoding: reencoding)
                    if case .installed(let outcome) = attempt {
                        onePass = outcome
                        break
                    }
                    recorder.discard()
                    store.discardStaging(stagingName)
                    (stagingName, staging) = try store.makeStaging()
                    recorder = try store.startManifest(for: stagingName)
                    manifest = recorder
                    guard case .notFlushed = attempt, !reencoding else { break }
                    reencoding = true
                }
            }
            var result: ExtractionResult
            var tarixStoreBuilt: (result: TarixStoreResult, sha256: String)?
            if let onePass {
                result = onePass.extraction
                tarixStoreBuilt = (onePass.store, onePass.sha256)
            } else {
                result = try Extractor.extract(
                    source, into: staging.fd, rootPath: staging.path, limits: configuration.limits, hashing: !known,
                    recorder: recorder, skipsDocuments: tarix)
                do { try source.awaitVerifiedEnd() } catch { throw InstallError.io(error) }
                if tarix {
                    // Two passes (a refused index, or a walk the store refused): the store from the finished file.
                    let built = try buildTarixStore(
                        from: source, into: staging, recorder: recorder, publisherIndex: request.tarixIndex,
                        archiveSHA256: source.verifiedSHA256 ?? result.archiveDigest?.description)
                    tarixStoreBuilt = (built.result, built.sha256)
                    result.bytesWritten += built.bytes
                    result.fileCount += TarixStoreResult.files.count
                }
            }
            let missing = DocsetValidator.missing(in: staging.fd, tarix: tarix)
            if !missing.isEmpty { throw InstallError.notADocset(missing: missing) }
            whenPrepared?(PreparedVersion(name: request.name, path: staging.path, version: version, stage: .extracted))
            var digest = request.archiveSHA256 ?? source.verifiedSHA256 ?? result.archiveDigest?.description
            if digest == nil, let file = source as? FileArchiveSource { digest = try Self.hash(file.path) }
            let prepared = try prepare(staging, extra: request.extra)
            for (key, value) in prepared?.extra ?? [:] { request.extra[key] = value }
            if prepared != nil {
                // What the preparation may have written or linked: Zeal's index, and the Documents folder or link
                // Zeal needs for Apple's layout (ReaderLayoutPreparation).
                for path in ReadOnlyTree.indexFiles + Self.readerLayoutPaths {
                    try recorder.rerecord(path, below: staging)
                }
            }
            whenPrepared?(PreparedVersion(name: request.name, path: staging.path, version: version))
            var record = DocsetMetadata.Record(
                identifier: request.identifier, version: request.version, archiveSHA256: digest,
                archiveSize: source.byteCount ?? 0, unpackedBytes: result.bytesWritten, fileCount: result.fileCount,
                entryUpdated: request.updated.map(DocsetMetadata.timestamp))
            record.prepared = prepared?.steps
            if let built = tarixStoreBuilt {
                record.layout = InstallLayout.tarix.rawValue
                record.tarixSHA256 = built.sha256
                record.tarixMode = built.result.mode
                record.tarixIndex = built.result.indexSource
            }
            let meta = DocsetMetadata(request: request, record: record)
            let host = HostRecord(
                installedAt: DocsetMetadata.timestamp(Date()),
                sourceURL: (request.sourceURL ?? source.verifiedURL)?.redactingCredentials,
                feed: request.feedURL?.redactingCredentials, urls: request.urls.map(\.redactingCredentials))
            try staging.writeFile(DocsetMetadata.fileName, meta.encoded())
            let icons = try Self.writeIcons(request.icons, into: staging)
            // Anything written into the staged tree after extraction is recorded here (a later line wins).
            for path in [DocsetMetadata.fileName] + icons { try recorder.rerecord(path, below: staging) }
            let late = ReadOnlyTree.indexFiles + [DocsetMetadata.fileName] + icons
            try ReadOnlyTree.finish(staging, paths: late + (tarix ? TarixStoreResult.files : []))
            try recorder.finish()
            try store.commitManifest(recorder, as: version)  // made durable by publish's syncfs
            try store.recordHost(host, for: version)
            do {
                _ = try store.publish(staging: stagingName, handle: staging, as: request.name, version: version)
            } catch {
                store.dropManifest(version)
                store.dropHostRecord(version)
                throw error
            }
            let path = "\(root)/\(VersionStore.stateName)/versions/\(version)"
            installed = InstallRecord(
                name: request.name, title: meta.title, version: meta.version, revision: meta.revision,
                identifier: request.identifier, path: path, indexPath: "\(path)/\(DocsetValidator.index)",
                installedAt: DocsetMetadata.date(host.installedAt), archiveSHA256: digest,
                sizeOnDisk: result.bytesWritten, fileCount: result.fileCount, feedURL: host.feed,
                sourceURL: host.sourceURL, updated: request.updated, urls: host.urls, zeal: Self.arrival(meta),
                layout: request.layout)
        } catch {
            manifest?.discard()
            store.discardStaging(stagingName)
            throw error
        }
        let garbage = (try? store.collectExpired(grace: configuration.gracePeriod)) ?? false
        return (installed, garbage)
    }

    /// A preflight estimate (the archive's unpacked size is unknown until it is read); a disk that fills anyway
    /// fails the install with `.io` (ENOSPC, naming the path) and leaves the installed version as it was.
    private func checkFreeSpace(for archiveBytes: Int64) throws(InstallError) {
        let free: (bytes: Int64, inodes: Int64)
        do { free = try LinuxFS.freeSpace(at: root) } catch { throw .io(error) }
        let bytes = archiveBytes.multipliedReportingOverflow(by: configuration.assumedExpansion).partialValue
        if free.bytes < bytes { throw .insufficientSpace(what: "space (bytes)", needed: bytes, available: free.bytes) }
        let inodes = archiveBytes / max(configuration.archiveBytesPerFile, 1)
        // File systems without inode accounting (btrfs) report 0.
        if free.inodes > 0, free.inodes < inodes {
            throw .insufficientSpace(what: "inodes", needed: inodes, available: free.inodes)
        }
    }

    private static func hash(_ path: String) throws(InstallError) -> String {
        let source: FileArchiveSource
        do { source = try FileArchiveSource(path: path) } catch { throw .io(error) }
        var hash = SHA256()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let n: Int
            do { n = try source.read(into: buffer) } catch { throw .io(error) }
            if n == 0 { break }
            hash.update(UnsafeRawBufferPointer(rebasing: buffer[..<n]))
        }
        return hash.finalize().description
    }

    private func emptyTrashInBackground() {
        background.enter()
        let root = self.root
        let group = background
        WorkerThread.start(name: "docsync-trash") {
            VersionStore.emptyTrash(root: root)
            group.leave()
        }
    }

    /// Runs blocking work on a dedicated thread and resumes the caller with its result.
    func onThread<T: Sendable>(_ name: String, _ body: @escaping @Sendable () throws(InstallError) -> T)
        async throws(InstallError) -> T
    {
        try await WorkerThread.run(name: name, stackSize: 1 << 20, body)
    }
}
