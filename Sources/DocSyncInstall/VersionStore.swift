import DocSyncSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The layout of a docset root and the steps that change it.
///
/// ```
/// <root>/NAME.docset -> .docsync/versions/NAME@ID    a relative symlink: what Zeal and other readers open
/// <root>/.docsync/lock                               flock()ed by whoever changes the root
/// <root>/.docsync/versions/NAME@ID/                  immutable versions (never end in ".docset")
/// <root>/.docsync/staging/ID/                        an extraction in progress
/// <root>/.docsync/retired/NAME@ID                    empty marker: its mtime is when NAME@ID stopped being current
/// <root>/.docsync/trash/                             being deleted in the background
/// <root>/.docsync/leases/NAME@ID                     flock()ed shared by readers holding NAME@ID (`VersionLease`)
/// <root>/.docsync/foreign/NAME-TIME                  a folder docsync did not create, moved aside (never deleted)
/// <root>/.docsync/changes/log                        the change log: one record per change (`ChangeLogWriter`)
/// ```
/// Everything but the `NAME.docset` links is under one dot-directory on the root's file system, so renames between
/// them are atomic and Zeal's scan (folders ending in `.docset`, dot-entries skipped) never sees work in progress.
///
/// Crash safety. The only step a reader can observe is `rename(.docsync/link-ID, NAME.docset)`, which replaces the old
/// symlink by the new one atomically (rename(2) guarantees NAME.docset names the old or the new link at every instant,
/// and after a crash). Before it: the new version is built in staging, renamed into versions/ and its `link-ID` created
/// (nothing references either yet), then all of it — tree, rename, link — made durable by one syncfs of the file system
/// — so the link can only ever point at a complete, durable tree. The old version is never modified; it stays where the
/// old link pointed until the grace period has passed. After the rename the root is fsynced, so the flip itself
/// survives a power cut. A crash (or SIGKILL) at any point therefore leaves NAME.docset pointing at one complete
/// version, plus garbage that nothing references: staging folders, an unflipped `link-ID`, or an unreferenced version.
/// The next run, under the lock, moves staging leftovers to trash, removes stray links, and gives unreferenced versions
/// a retired marker so they are deleted only after the grace period (a reader may hold one).
///
/// A NAME.docset docsync did not create (a real folder, a file, or a link that does not point at one of its
/// versions) is never replaced silently: `checkReplaceable` refuses it (`InstallError.foreign`). Only with
/// `replaceForeign` is a real folder replaced — with `renameat2(RENAME_EXCHANGE)` against the new link, atomic —
/// and moved aside to `.docsync/foreign/NAME-TIME`, where it stays until the user removes it. Where the file system
/// lacks RENAME_EXCHANGE (EINVAL: NFS, FUSE), the folder is first renamed away, then the link renamed in: a reader
/// may find NAME.docset missing for that instant, but never a mixed or incomplete tree.
final class VersionStore {
    static let stateName = ".docsync"
    let rootPath: String
    let root: DirectoryHandle
    let state: DirectoryHandle
    let versions: DirectoryHandle
    let staging: DirectoryHandle
    let retired: DirectoryHandle
    let trash: DirectoryHandle
    /// Lease files, one per leased version (see `VersionLease`).
    let leases: DirectoryHandle
    /// Moving foreign folders aside into `.docsync/foreign/` (never deleted by docsync).
    var replaceForeign = false
    /// How long the change log keeps a record (`[changes] keep`).
    var changesKeep: Duration = .seconds(365 * 86_400)
    /// The change log, opened under the lock by the first step that needs it.
    var changes: ChangeLogWriter?
    /// What a version's content record needs beyond its manifest (nil: no content records are written).
    var describeContent: VersionContentScan?
    private var lockFD: Int32 = -1

    /// Opens (creating if needed) the root and its state folders.
    init(root rootPath: String) throws(InstallError) {
        if mkdir(rootPath, 0o755) != 0 && errno != EEXIST { throw .io(SystemError("mkdir", path: rootPath)) }
        self.rootPath = rootPath
        root = try DirectoryHandle.open(rootPath)
        state = try root.directory(Self.stateName, create: true)
        versions = try state.directory("versions", create: true)
        staging = try state.directory("staging", create: true)
        retired = try state.directory("retired", create: true)
        trash = try state.directory("trash", create: true)
        leases = try state.directory(VersionLease.folderName, create: true)
    }

    // Unlocked before the close: a child another thread is spawning shares the descriptor until its exec.
    deinit {
        if lockFD >= 0 {
            _ = flock(lockFD, LOCK_UN)
            close(lockFD)
        }
    }

    /// Takes the root's lock (blocking); released when this store is released. The kernel drops it if we crash.
    func lock() throws(InstallError) {
        let fd = openat(state.fd, "lock", O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        if fd < 0 { throw state.error("openat", "lock") }
        while flock(fd, LOCK_EX) != 0 {
            if errno != EINTR {
                let error = state.error("flock", "lock")
                close(fd)
                throw error
            }
        }
        lockFD = fd
    }

    static func linkName(_ name: String) -> String { "\(name).docset" }

    /// A new version folder name for the docset `name`.
    static func versionName(for name: String) -> String { "\(name)@\(newID())" }

    static func newID() -> String {
        let millis = UInt64(Date().timeIntervalSince1970 * 1000)
        return "\(String(millis, radix: 36))-\(String(UInt32.random(in: 0...UInt32.max), radix: 36))"
    }

    /// The version folder NAME.docset currently points at (nil: not a docsync link).
    func currentVersion(of name: String) -> String? {
        Self.version(linkTarget: root.linkTarget(Self.linkName(name)))
    }

    /// The version folder a `NAME.docset` link target names (nil: not a docsync link).
    static func version(linkTarget target: String?) -> String? {
        let prefix = "\(stateName)/versions/"
        guard let target, target.hasPrefix(prefix) else { return nil }
        let version = String(target.dropFirst(prefix.count))
        return isVersionName(version) ? version : nil
    }

    /// A version folder name docsync made: one component, not `.` / `..`.
    static func isVersionName(_ version: String) -> Bool {
        !version.isEmpty && version != "." && version != ".." && !version.contains("/") && !version.utf8.contains(0)
    }

    /// Throws unless NAME.docset is missing or docsync's own link into `.docsync/versions/` (or, with
    /// `replaceForeign`, a real folder that will be moved aside). Checked before anything visible changes.
    func checkReplaceable(_ docsetName: String) throws(InstallError) {
        let linkName = Self.linkName(docsetName)
        guard let st = try root.status(linkName) else { return }
        switch st.st_mode & S_IFMT {
        case S_IFLNK:
            if currentVersion(of: docsetName) != nil { return }  // docsync's link (a dangling one is repaired)
            let target = root.linkTarget(linkName) ?? "?"
            throw .foreign(
                docsetName,
                reason: "\(root.path)/\(linkName) is a symlink docsync did not create (it points at \(target), not "
                    + "into \(Self.stateName)/versions/); remove it to let docsync install \(docsetName)")
        case S_IFDIR:
            if replaceForeign { return }
            throw .foreign(
                docsetName,
                reason: "\(root.path)/\(linkName) is a folder docsync did not create; hand it over with "
                    + "`docsync adopt \(docsetName)`, or set `[install] replace_foreign = true` to move it aside into "
                    + "\(root.path)/\(Self.stateName)/foreign/ (kept, never deleted)")
        default:
            throw .foreign(
                docsetName, reason: "\(root.path)/\(linkName) is not a folder or a docsync link; remove it first")
        }
    }

    /// Versions referenced by some `*.docset` link in the root.
    func referencedVersions() throws(InstallError) -> Set<String> {
        var result = Set<String>()
        for entry in try root.entries() where entry.name.hasSuffix(".docset") && !entry.name.hasPrefix(".") {
            if let version = currentVersion(of: String(entry.name.dropLast(".docset".count))) { result.insert(version) }
        }
        return result
    }

    // MARK: Recovery and garbage

    /// Under the lock: moves crash leftovers out of the way (instant renames) and retires versions nothing uses.
    func recover() throws(InstallError) {
        try recoverChanges()
        for entry in try staging.entries() {
            try staging.rename(entry.name, to: trash, as: "staging-\(entry.name)-\(Self.newID())")
        }
        for entry in try state.entries() where entry.name.hasPrefix("link-") {
            if entry.type == DT_DIR {
                // Crash right after an exchange: the replaced foreign folder, kept until the user removes it.
                try moveAsideForeign(entry.name, from: state, as: "unknown")
            } else {
                try state.unlink(entry.name)
            }
        }
        let referenced = try referencedVersions()
        for entry in try versions.entries() where !referenced.contains(entry.name) {
            if try retired.status(entry.name) == nil { try retire(entry.name) }
        }
        try dropOrphanedManifests()
        try dropOrphanedHostRecords()
    }

    /// Starts the grace period of a version that is no longer current.
    func retire(_ version: String) throws(InstallError) {
        try retired.writeFile(version, [])
    }

    /// Moves versions retired longer than `grace` into the trash. Returns true when the trash has something.
    func collectExpired(grace: Duration) throws(InstallError) -> Bool {
        let referenced = try referencedVersions()
        let now = Date().timeIntervalSince1970
        let graceSeconds = Double(grace.components.seconds) + Double(grace.components.attoseconds) / 1e18
        for entry in try retired.entries() {
            guard let marker = try retired.status(entry.name) else { continue }
            let exists = try versions.status(entry.name) != nil
            if referenced.contains(entry.name) || !exists {
                try retired.unlink(entry.name)
                continue
            }
            let retiredAt = Double(marker.st_mtim.tv_sec) + Double(marker.st_mtim.tv_nsec) / 1e9
            guard now - retiredAt >= graceSeconds else { continue }
            // A leased version stays (marker and all) until the first run after its last lease is released.
            _ = try VersionLease.whenUnleased(entry.name, in: leases) { () throws(InstallError) in
                try versions.rename(entry.name, to: trash, as: "version-\(entry.name)-\(Self.newID())")
                dropManifest(entry.name)
                dropHostRecord(entry.name)
                try retired.unlink(entry.name)
            }
        }
        try dropStaleLeaseFiles()
        return try !trash.entries().isEmpty
    }

    /// Unlinks lease files of versions that no longer exist and that nobody holds.
    private func dropStaleLeaseFiles() throws(InstallError) {
        for entry in try leases.entries() where try versions.status(entry.name) == nil {
            _ = try VersionLease.whenUnleased(entry.name, in: leases) {}
        }
    }

    /// The versions readers hold a lease on now.
    func leasedVersions() -> Set<String> { VersionLease.leased(in: leases) }

    /// Deletes the trash's contents (called on a background thread; uses its own descriptors, each component
    /// opened with `O_NOFOLLOW`: a `.docsync` or `trash` that is a symlink is left alone).
    static func emptyTrash(root rootPath: String) {
        guard let root = try? SafeDirectory.open(rootPath), let state = try? root.existingDirectory(stateName),
            let trash = try? state.existingDirectory("trash")
        else { return }
        let fd = dup(trash.fd)
        if fd >= 0 { TreeRemover.emptyDirectory(fd) }
    }

    /// Moves a folder docsync did not create into `.docsync/foreign/NAME-TIME`; it is never deleted.
    func moveAsideForeign(_ name: String, from directory: DirectoryHandle, as docsetName: String) throws(InstallError) {
        let foreign = try state.directory("foreign", create: true)
        let stamp = DocsetMetadata.timestamp(Date()).replacingOccurrences(of: ":", with: "")
        try directory.rename(name, to: foreign, as: "\(docsetName)-\(stamp)-\(Self.newID())")
        try foreign.sync()
    }

    // MARK: Install steps

    /// A new empty staging folder (dot-prefixed parent, never ending in ".docset").
    func makeStaging() throws(InstallError) -> (name: String, handle: DirectoryHandle) {
        let name = Self.newID()
        return (name, try staging.directory(name, create: true))
    }

    /// Moves a failed staging folder to the trash and deletes it at once (nothing references it).
    func discardStaging(_ name: String) {
        let trashName = "staging-\(name)"
        guard (try? staging.rename(name, to: trash, as: trashName)) != nil else { return }
        TreeRemover.remove(trashName, in: trash.fd)
    }

    /// Makes the staged tree durable and the current version of `name`. Returns the version folder name.
    ///
    /// The version folder and its link are put in place first — nothing references either until the flip, and
    /// `recover()` retires an unreferenced version and deletes a stray link after a crash — so that one `syncfs`
    /// makes the tree, its manifest and host record, the folder's rename and the link durable together, before the
    /// flip (one journal commit, where a directory fsync after each step cost four more).
    func publish(
        staging name: String, handle: DirectoryHandle, as docsetName: String, version: String? = nil
    ) throws(InstallError) -> String {
        let version = version ?? Self.versionName(for: docsetName)
        try staging.rename(name, to: versions, as: version)
        let link = "link-\(Self.newID())"
        let previous = currentVersion(of: docsetName)
        do throws(InstallError) {
            try checkReplaceable(docsetName)
            if symlinkat("\(Self.stateName)/versions/\(version)", state.fd, link) != 0 {
                throw state.error("symlinkat", link)
            }
            // The change's record: made durable by the same syncfs, before the flip (`ChangeLogWriter`).
            try recordFlip(docsetName, from: previous, to: version, durable: false)
            do {
                try LinuxFS.syncFileSystem(handle.fd, path: handle.path)
            } catch {
                throw InstallError.io(error)
            }
        } catch {
            // Back where the installer discards a failed staging folder.
            rollbackFlip()
            try? state.unlink(link)
            try? versions.rename(version, to: staging, as: name)
            throw error
        }
        let linkName = Self.linkName(docsetName)
        do throws(InstallError) {
            do {
                try LinuxFS.rename(from: link, in: state.fd, to: linkName, in: root.fd)
            } catch  where error.code == EISDIR || error.code == ENOTEMPTY || error.code == EEXIST {
                try replaceForeignDirectory(linkName, with: link)
            } catch {
                try? state.unlink(link)
                throw InstallError.io(error)
            }
        } catch {
            if currentVersion(of: docsetName) != version { rollbackFlip() }
            throw error
        }
        settleFlip()
        // The new version is visible now: what follows is durability and bookkeeping that must not turn the
        // result into "failed" (recover() retires unreferenced versions on the next run).
        try? root.sync()
        try? state.sync()
        if let previous { try? retire(previous) }
        return version
    }

    /// NAME.docset is a real folder and `replaceForeign` is set: exchange it with the new link atomically (or, on
    /// EINVAL, move it away first), then keep it in `.docsync/foreign/`.
    private func replaceForeignDirectory(_ linkName: String, with link: String) throws(InstallError) {
        guard replaceForeign, let st = try root.status(linkName), st.st_mode & S_IFMT == S_IFDIR else {
            try? state.unlink(link)
            throw .foreign(
                String(linkName.dropLast(".docset".count)),
                reason: "\(root.path)/\(linkName) appeared while installing and was left alone")
        }
        let docsetName = String(linkName.dropLast(".docset".count))
        do {
            try LinuxFS.rename(from: link, in: state.fd, to: linkName, in: root.fd, mode: .exchange)
        } catch  where error.code == EINVAL {
            try moveAsideForeign(linkName, from: root, as: docsetName)
            try state.rename(link, to: root, as: linkName)
            return
        } catch {
            try? state.unlink(link)
            throw .io(error)
        }
        // The foreign folder now sits at .docsync/link-ID.
        try moveAsideForeign(link, from: state, as: docsetName)
    }

    /// Takes NAME.docset out of the root atomically; its version is retired, not deleted.
    func unpublish(_ docsetName: String) throws(InstallError) {
        let linkName = Self.linkName(docsetName)
        guard let st = try root.status(linkName) else { throw .notInstalled(docsetName) }
        if st.st_mode & S_IFMT == S_IFLNK {
            guard let previous = currentVersion(of: docsetName) else {
                throw .foreign(
                    docsetName, reason: "\(root.path)/\(linkName) is a symlink docsync did not create; left alone")
            }
            try recordFlip(docsetName, from: previous, to: nil, durable: true)
            do {
                try root.unlink(linkName)
            } catch {
                rollbackFlip()
                throw error
            }
            settleFlip()
            try root.sync()
            try retire(previous)
        } else if st.st_mode & S_IFMT == S_IFDIR {
            throw .foreign(
                docsetName,
                reason: "\(root.path)/\(linkName) is a folder docsync did not create; docsync never deletes it "
                    + "(remove it yourself, or hand it over with `docsync adopt \(docsetName)`)")
        } else {
            throw .notInstalled(docsetName)
        }
    }
}
