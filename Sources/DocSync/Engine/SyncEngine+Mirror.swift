// The fleet mirror (`[mirror]`): publishing after a sync, bundles and imports.

internal import DocSyncCatalog
internal import DocSyncDownload
internal import DocSyncInstall
package import DocSyncMirror
internal import DocSyncSupport
internal import DocSyncTarix
import Foundation

extension SyncEngine {
    /// The publisher for `[mirror]`, nil when the configuration has none.
    var mirrorPublisher: MirrorPublisher? {
        guard let mirror = configuration.mirror else { return nil }
        let settings = MirrorPublisher.Settings(
            directory: mirror.directory, baseURL: mirror.baseURL, keep: mirror.keep,
            grace: mirror.gracePeriod / .seconds(1))
        var publisher = MirrorPublisher(settings: settings, statePath: "\(configuration.state)/mirror.json")
        publisher.indexer = Self.mirrorIndexer(staging: configuration.staging)
        return publisher
    }

    /// `docsync mirror publish`: publishes every docset docsync installed into `[mirror] dir` (under the sync lock).
    package func publishMirror() async throws -> MirrorPublisher.Report {
        let lock = try await SyncExclusion.acquire(stateDirectory: configuration.state, wait: true)
        defer { withExtendedLifetime(lock) {} }
        return try await publishMirrorLocked()
    }

    /// The publish itself; the caller holds the sync lock. Archives not kept by a sync (installed before `[mirror]`
    /// was configured) are downloaded again from their upstream URLs, checksum enforced.
    func publishMirrorLocked() async throws -> MirrorPublisher.Report {
        guard let publisher = mirrorPublisher else { return MirrorPublisher.Report() }
        let (lock, skipped) = try makeLock()
        let versions = lock.docsets.map(Self.mirrorVersion)
        let downloader = self.downloader
        let staging = configuration.staging
        var fetched: [String] = []
        defer { for path in fetched { try? FileManager.default.removeItem(atPath: path) } }
        var report = try await publisher.publish(versions, held: Set(skipped)) { version in
            try FileManager.default.createDirectory(atPath: "\(staging)/complete", withIntermediateDirectories: true)
            let path = "\(staging)/complete/mirror-\(version.sha256).archive"
            fetched.append(path)
            _ = try await downloader.download(
                DownloadRequest(
                    key: "mirror:\(version.sha256)", alternates: version.upstream, destination: path,
                    expectedSHA256: version.sha256)
            ) { _ in }
            return path
        } manifest: { documents in
            Array(Self.manifest(documents).encoded())
        }
        report.skipped += skipped.map { ($0, "no archive checksum (not installed by docsync: sync it first)") }
        return report
    }

    /// After an install: keeps the verified archive in the mirror's pool (a hard link) before staging deletes it.
    func retainForMirror(archive: String, docset: InstallRecord, urls: [String]) {
        guard let publisher = mirrorPublisher, let sha256 = docset.archiveSHA256,
            let size = (try? FileManager.default.attributesOfItem(atPath: archive)[.size] as? NSNumber)?.int64Value
        else { return }
        var upstream = urls
        if let used = docset.sourceURL {
            upstream.removeAll { $0 == used }
            upstream.insert(used, at: 0)
        }
        let version = MirrorVersion(
            name: docset.name, title: docset.title, version: docset.version ?? "", sha256: sha256, size: size,
            upstream: upstream)
        try? publisher.retain(version, from: archive)  // best effort: the publish fetches it otherwise
    }

    static func mirrorVersion(_ entry: LockFile.Entry) -> MirrorVersion {
        var version = MirrorVersion(
            name: entry.name, title: entry.title ?? entry.name, version: entry.version, revision: entry.revision,
            sha256: entry.sha256, size: entry.size, upstream: entry.archives, feed: entry.feed, icon: entry.icon,
            icon2x: entry.icon2x, extra: entry.extra)
        version.zeal = entry.zeal
        return version
    }

    /// The mirror's `manifest.lock`: the lock format, archive URLs the mirror's copy first.
    static func manifest(_ documents: MirrorDocuments) -> LockFile {
        let entries = documents.state.latest.map { version in
            var entry = LockFile.Entry(
                name: version.name, title: version.title, version: version.version, revision: version.revision,
                archives: documents.archiveURLs(version), sha256: version.sha256, size: version.size,
                feed: documents.url(MirrorDocuments.feedPath(version.name)))
            entry.icon = version.icon
            entry.icon2x = version.icon2x
            entry.extra = version.extra
            entry.zeal = version.zeal
            return entry
        }
        return LockFile(generatedAt: documents.state.updated ?? Date(), docsets: entries)
    }
}

extension SyncEngine {
    /// The end of a sync with `[mirror]`: publish. Returns the failures the run's summary counts (so the run exits 3):
    /// a publish that could not write the tree (one `failed` event named `[mirror]`), and each docset whose archive
    /// could not be had for the pool (its feed keeps the version published before). Docsets with nothing to publish
    /// (installed without a checksum) are `skipped` events, not failures; each Kapeli docset published without
    /// `[mirror] kapeli_permission` is a `warning` event (``KapeliLicence``).
    func publishMirrorAfterSync(emit: @escaping @Sendable (SyncEvent) -> Void) async -> Int {
        guard configuration.mirror != nil else { return 0 }
        do {
            let report = try await publishMirrorLocked()
            for (name, reason) in report.skipped { emit(.skipped(name: name, reason: "mirror: \(reason)")) }
            for failure in report.failed {
                emit(.failed(name: "[mirror]", failure: Self.mirrorFailure(failure)))
            }
            let installed = (try? installedDocsets()) ?? []
            let permission = configuration.mirror?.kapeliPermission ?? false
            for name in KapeliLicence.covered(installed, names: Set(report.published), permission: permission) {
                let warning = KapeliLicence.warning(key: "[mirror] kapeli_permission")
                emit(.warning(name: name, message: "mirror: \(warning)"))
            }
            return report.failed.count
        } catch {
            var failure = SyncFailure(error)
            failure.message = "mirror publish: \(failure.message); the previously published tree is unchanged"
            emit(.failed(name: "[mirror]", failure: failure))
            return 1
        }
    }

    /// `mirror publish: NAME: REASON; its feed keeps version V` (or: is not published).
    package static func mirrorFailure(_ failure: (name: String, reason: String, kept: String?)) -> SyncFailure {
        let outcome =
            failure.kept.map { "its feed keeps the version published before (\($0.isEmpty ? "unversioned" : $0))" }
            ?? "it is not published (no earlier version is)"
        return SyncFailure(
            code: .io,
            message: "mirror publish: \(failure.name): its archive could not be obtained (\(failure.reason)); \(outcome)")
    }
}

extension SyncEngine {
    /// `docsync mirror bundle FILE`: the published tree as one tar file (manifest first), with the archives the
    /// manifest names; `includeRetired`: every archive still in the tree (older kept versions, and retired ones in
    /// their grace period).
    package func bundleMirror(to output: String, includeRetired: Bool = false) throws -> [String] {
        guard let mirror = configuration.mirror else {
            throw DocSyncConfigurationError(file: "", key: "mirror.dir", problem: "no [mirror] table in the configuration")
        }
        let named =
            includeRetired
            ? nil : Set(try LockFile.load("\(mirror.directory)/\(MirrorDocuments.manifestPath)").docsets.map(\.sha256))
        let files = try MirrorBundle.files(in: mirror.directory, archives: named)
        try MirrorBundle.write(directory: mirror.directory, files: files, to: output)
        return files
    }

    /// `docsync mirror import PATH`: installs every docset of a bundle file or an unpacked tree, with no network.
    /// Each archive must hash to the manifest's SHA-256; a docset already installed at that archive is unchanged.
    package func importMirror(from path: String) async throws -> [SyncEvent] {
        let lock = try await SyncExclusion.acquire(stateDirectory: configuration.state, wait: true)
        defer { withExtendedLifetime(lock) {} }
        var isDirectory: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        var tree = path
        var unpacked: String?
        if !isDirectory.boolValue {
            let scratch = "\(configuration.staging)/import-\(ProcessInfo.processInfo.processIdentifier)"
            try? FileManager.default.removeItem(atPath: scratch)
            try FileManager.default.createDirectory(atPath: configuration.staging, withIntermediateDirectories: true)
            try MirrorBundle.unpack(path, into: scratch)
            tree = scratch
            unpacked = scratch
        }
        defer { if let unpacked { try? FileManager.default.removeItem(atPath: unpacked) } }
        let manifest = try LockFile.load("\(tree)/\(MirrorDocuments.manifestPath)")
        let installed = try installer.installedDocsets()
        var events: [SyncEvent] = []
        for entry in manifest.docsets {
            let folder = "\(tree)/archives/\(entry.sha256)"
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder))?.filter {
                !$0.hasPrefix(".") && !$0.hasSuffix(".tarix")  // the archive, not its tarix index beside it
            }
            guard let file = files?.first else {
                events.append(
                    .failed(
                        name: entry.name,
                        failure: SyncFailure(code: .invalidRequest, message: "\(folder): no archive in the bundle")))
                continue
            }
            let archive = "\(folder)/\(file)"
            if let current = installed.first(where: { $0.name == entry.name }), current.archiveSHA256 == entry.sha256 {
                events.append(.unchanged(name: entry.name, version: entry.version))
                continue
            }
            do {
                let actual = try Self.hashFile(archive)
                guard actual == entry.sha256 else {
                    throw MirrorError.checksum(archive, expected: entry.sha256, actual: actual)
                }
                var request = InstallRequest(
                    name: entry.name, title: entry.title, version: entry.version, revision: entry.revision,
                    feedURL: entry.feed, urls: entry.archives, identifier: nil, updated: nil)
                request.apply(
                    catalog: CatalogEntry(
                        source: .zeal, name: entry.name, title: entry.title, icon: entry.icon, icon2x: entry.icon2x,
                        extra: entry.extra))
                request.arrival = entry.zeal ?? ZealArrival(kind: .catalog)
                request.sourceURL = entry.archives.first
                request.archiveSHA256 = actual
                let docset = try await installer.install(archive: archive, as: request)
                events.append(.installed(InstalledDocset(docset)))
            } catch let error as MirrorError {
                events.append(.failed(name: entry.name, failure: SyncFailure(code: .verification, message: "\(error)")))
            } catch {
                events.append(
                    .failed(name: entry.name, failure: SyncFailure(code: .invalidArchive, message: "\(error)")))
            }
        }
        return events
    }

    static func hashFile(_ path: String) throws -> String {
        guard let (fd, _) = (try? RegularFile.open(path, followSymlink: true)).flatMap({ $0 }) else {
            throw MirrorError.bundle(path, "cannot read the archive")
        }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        var hash = SHA256()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { hash.update(chunk) }
        return hash.finalize().description
    }
}

extension SyncEngine {
    /// The fleet mirror's tarix indexes (`<archive>.tarix`, Kapeli's convention: a gzip'd tar holding
    /// `tarixIndex.db`), built in `<staging>/complete/` for an archive already flushed at every record (indexed as it
    /// is, one inflate pass, every path passing extraction's rules); nil for any other archive — re-encoding would
    /// change the bytes the mirror serves under the publisher's digest.
    static func mirrorIndexer(staging: String) -> MirrorIndexer {
        { archiveFD, archiveName in
            let complete = try SafeDirectory.open(staging, create: true).directory("complete", create: true)
            let stem = "mirror-tarix-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
            let database = "\(stem).db"
            let package = "\(stem).tarix"
            defer {
                try? complete.unlink(database)
                try? complete.unlink(package)
            }
            do {
                _ = try TarixBuilder.indexAsIs(
                    source: archiveFD, sourceName: archiveName, indexPath: "\(complete.path)/\(database)")
            } catch let error as TarixError where error.isNotFlushed {
                return nil
            }
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(complete.path)/\(database)")))
            let writer = try ArchiveWriter(path: "\(complete.path)/\(package)", format: .ustar, filter: .gzip)
            try writer.add(ArchiveWriter.Entry("tarixIndex.db", .file(data: bytes)))
            try writer.close()
            return try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(complete.path)/\(package)")))
        }
    }
}
