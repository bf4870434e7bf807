internal import DocSyncDownload
internal import DocSyncInstall
package import DocSyncMirror
internal import DocSyncSupport
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
        let lock = try await SyncLock.acquire(stateDirectory: configuration.state, wait: true)
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
                    key: "mirror:\(version.sha256)", mirrors: version.upstream, destination: path,
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


