import DocSyncSupport
import Foundation

extension Installer {
    /// Leases the version `<root>/<name>.docset` points at now (see `VersionLease`), on a thread of its own.
    package func lease(name: String) async throws(InstallError) -> VersionLease {
        let root = self.root
        return try await onThread("docsync-lease") { () throws(InstallError) in
            try VersionLease.acquire(root: root, name: name)
        }
    }

    /// Leases the version folder `version` (`NAME@ID`, current or not); nil when it no longer exists.
    package func lease(version: String) async throws(InstallError) -> VersionLease? {
        let root = self.root
        return try await onThread("docsync-lease") { () throws(InstallError) in
            try VersionLease.acquire(root: root, version: version)
        }
    }

    /// The version folders some reader holds a lease on now, as resolved paths. Takes no lock; never waits.
    package func leasedVersionPaths() -> [String] {
        guard let store = try? VersionStore(root: root), let resolved = realpath(root, nil) else { return [] }
        defer { free(resolved) }
        let base = "\(String(cString: resolved))/\(VersionStore.stateName)/versions/"
        return store.leasedVersions().sorted().map { base + $0 }
    }

    /// The record of the docset `name` as installed at `path` (its `meta.json`), for a leased version.
    package func record(name: String, path: String) -> InstallRecord {
        let meta = (try? SafeDirectory.open(path).readFile(DocsetMetadata.fileName, limit: 1 << 20))
            .flatMap { $0 }.flatMap { DocsetMetadata.decode($0) }
        return InstallRecord(name: name, path: path, meta: meta, host: hostRecord(of: path))
    }
}
