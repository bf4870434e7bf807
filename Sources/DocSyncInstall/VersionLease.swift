import DocSyncSupport
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A hold on one installed version folder: while any process holds a lease on `NAME@ID`, no prune deletes it
/// (nor its derived search index), whatever its grace period; the first prune after the last lease is gone does.
///
/// The protocol is two `flock(2)` modes on one file per version, `<root>/.docsync/leases/NAME@ID`:
/// - a holder opens (creating) it and takes `LOCK_SH` — any number of holders, in any processes, at once; the kernel
///   drops the lock when the holder closes it or dies (SIGKILL included), so a lease never outlives its process;
/// - the pruner (`VersionStore.collectExpired`, under the root's lock) tries `LOCK_EX | LOCK_NB` before it moves an
///   expired version to the trash: refused means leased, and the version stays; granted, it moves the version,
///   unlinks the lease file and only then unlocks.
///
/// A holder that locked a file the pruner has meanwhile unlinked (it opened it just before) sees that the file at
/// the path is no longer the one it holds, or that the version is gone, and starts over from `NAME.docset`'s current
/// target, so a lease it returns always holds a version that exists and stays.
package final class VersionLease: Sendable {
    /// The version folder name (`NAME@ID`); nil for a docset docsync did not install (never pruned by docsync).
    package let version: String?
    /// The folder readers use: `<resolved root>/.docsync/versions/NAME@ID`, or `<root>/NAME.docset`.
    package let path: String
    private let descriptor: Mutex<Int32>

    private init(version: String?, path: String, fd: Int32) {
        self.version = version
        self.path = path
        descriptor = Mutex(fd)
    }

    deinit { release() }

    /// True until ``release()``.
    package var isHeld: Bool { descriptor.withLock { $0 >= 0 } }

    /// Drops the lease (idempotent).
    package func release() {
        descriptor.withLock { fd in
            if fd >= 0 {
                _ = flock(fd, LOCK_UN)  // before the close: a child being spawned shares the descriptor until exec
                close(fd)
            }
            fd = -1
        }
    }

    static let folderName = "leases"

    /// Leases the version `<root>/<name>.docset` points at now (blocking: at most the pruner's rename).
    package static func acquire(root rootPath: String, name: String) throws(InstallError) -> VersionLease {
        if let problem = InstallRequest.problem(with: name) { throw .invalidName(name, reason: problem) }
        let root: DirectoryHandle
        do {
            root = try DirectoryHandle.open(rootPath)
        } catch {
            throw .notInstalled(name)
        }
        let linkName = VersionStore.linkName(name)
        for _ in 0..<16 {
            guard let st = try root.status(linkName) else { throw .notInstalled(name) }
            if st.st_mode & S_IFMT == S_IFDIR {
                return VersionLease(version: nil, path: "\(rootPath)/\(linkName)", fd: -1)  // not docsync's: kept
            }
            guard st.st_mode & S_IFMT == S_IFLNK,
                let version = VersionStore.version(linkTarget: root.linkTarget(linkName))
            else {
                throw .foreign(name, reason: "\(rootPath)/\(linkName) is not a folder or a docsync link")
            }
            if let lease = try hold(version, root: root, rootPath: rootPath) { return lease }
            // pruned meanwhile: NAME.docset points at a newer version now
        }
        throw .io(SystemError("lease", path: "\(rootPath)/\(linkName)", code: EAGAIN))
    }

    /// Leases the version folder `version` (`NAME@ID`, current or not) under `rootPath`; nil when it no longer
    /// exists (pruned), or is not a version folder name.
    package static func acquire(root rootPath: String, version: String) throws(InstallError) -> VersionLease? {
        guard VersionStore.isVersionName(version) else { return nil }
        let root: DirectoryHandle
        do {
            root = try DirectoryHandle.open(rootPath)
        } catch {
            return nil
        }
        return try hold(version, root: root, rootPath: rootPath)
    }

    /// Takes a shared lock on `version`'s lease file; nil (nothing held) when the pruner unlinked that file
    /// meanwhile or the version folder is gone.
    private static func hold(_ version: String, root: DirectoryHandle, rootPath: String) throws(InstallError)
        -> VersionLease?
    {
        let state = try root.directory(VersionStore.stateName)
        let versions = try state.directory("versions")
        let leases = try state.directory(folderName, create: true)
        let fd = openat(leases.fd, version, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        if fd < 0 { throw leases.error("openat", version) }
        while flock(fd, LOCK_SH) != 0 {
            guard errno == EINTR else {
                let error = leases.error("flock", version)
                close(fd)
                throw error
            }
        }
        var held = stat()
        fstat(fd, &held)
        let current = try? leases.status(version)
        let stillLinked = current.map { $0.st_ino == held.st_ino && $0.st_dev == held.st_dev } ?? false
        let exists = (try? versions.status(version)).flatMap { $0 }.map { $0.st_mode & S_IFMT == S_IFDIR } ?? false
        guard stillLinked && exists else {
            close(fd)
            return nil
        }
        guard let resolved = realpath(rootPath, nil) else {
            close(fd)
            throw root.error("realpath", ".")
        }
        defer { free(resolved) }
        let path = "\(String(cString: resolved))/\(VersionStore.stateName)/versions/\(version)"
        return VersionLease(version: version, path: path, fd: fd)
    }

    /// Whether `version` may be deleted now; when it may, `body` runs while the lease file is locked exclusively
    /// (no holder can start), then the lease file is unlinked. Returns false (and does nothing) while leased.
    static func whenUnleased(
        _ version: String, in leases: DirectoryHandle?, _ body: () throws(InstallError) -> Void
    ) throws(InstallError) -> Bool {
        guard let leases else {
            try body()
            return true
        }
        let fd = openat(leases.fd, version, O_RDWR | O_NOFOLLOW | O_CLOEXEC)
        if fd < 0 {
            guard errno == ENOENT else { throw leases.error("openat", version) }
            try body()
            return true
        }
        defer { close(fd) }
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            if errno == EWOULDBLOCK { return false }
            throw leases.error("flock", version)
        }
        try body()
        try leases.unlink(version)
        return true
    }

    /// The versions some process holds a lease on now (tested without waiting).
    static func leased(in leases: DirectoryHandle?) -> Set<String> {
        guard let leases, let entries = try? leases.entries() else { return [] }
        var result = Set<String>()
        for entry in entries {
            let fd = openat(leases.fd, entry.name, O_RDWR | O_NOFOLLOW | O_CLOEXEC)
            guard fd >= 0 else { continue }
            if flock(fd, LOCK_EX | LOCK_NB) != 0 { result.insert(entry.name) }
            close(fd)
        }
        return result
    }
}
