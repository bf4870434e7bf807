internal import DocSyncCatalog
internal import DocSyncInstall
internal import DocSyncMirror
internal import DocSyncSupport
import Foundation

extension SyncEngine {
    /// `docsync mirror bundle FILE`: the published tree as one tar file (manifest first), with the archives the
    /// manifest names; `includeRetired`: every archive still in the tree (older kept versions, and retired ones in
    /// their grace period).
    package func bundleMirror(to output: String, includeRetired: Bool = false) throws -> [String] {
        guard let mirror = configuration.mirror else {
            throw ConfigurationError(file: "", key: "mirror.dir", problem: "no [mirror] table in the configuration")
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
        let lock = try await SyncLock.acquire(stateDirectory: configuration.state, wait: true)
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
