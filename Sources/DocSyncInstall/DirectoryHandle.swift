import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The installer's view of a `SafeDirectory` (`O_DIRECTORY | O_NOFOLLOW`, every call relative to its descriptor):
/// the same implementation as the downloader's and the engine's, with errors as `InstallError.io` naming the path.
final class DirectoryHandle {
    let base: SafeDirectory
    var fd: Int32 { base.fd }
    var path: String { base.path }

    private init(_ base: SafeDirectory) { self.base = base }

    /// Opens a configured base folder (the root) by its path.
    static func open(_ path: String, create: Bool = false) throws(InstallError) -> DirectoryHandle {
        do { return DirectoryHandle(try SafeDirectory.open(path, create: create)) } catch { throw .io(error) }
    }

    /// Opens (creating when `create`) the subdirectory `name`, never following a symlink.
    func directory(_ name: String, create: Bool = false) throws(InstallError) -> DirectoryHandle {
        do { return DirectoryHandle(try base.directory(name, create: create)) } catch { throw .io(error) }
    }

    func error(_ call: String, _ name: String, code: Int32 = errno) -> InstallError {
        .io(base.failure(call, name, code: code))
    }

    func sync() throws(InstallError) {
        do { try base.sync() } catch { throw .io(error) }
    }

    /// Entry names (without "." and ".."), each with its d_type.
    func entries() throws(InstallError) -> [(name: String, type: UInt8)] {
        do { return try base.entries() } catch { throw .io(error) }
    }

    /// lstat of `name`; nil when it does not exist.
    func status(_ name: String) throws(InstallError) -> stat? {
        var st = stat()
        if fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 {
            if errno == ENOENT { return nil }
            throw error("fstatat", name)
        }
        return st
    }

    /// The target of the symlink `name`; nil when `name` is missing or not a symlink.
    func linkTarget(_ name: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4097)
        let n = readlinkat(fd, name, &buffer, 4096)
        guard n >= 0 else { return nil }
        return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func rename(
        _ name: String, to target: DirectoryHandle, as newName: String, mode: LinuxFS.RenameMode = .replace
    ) throws(InstallError) {
        do { try base.rename(name, to: target.base, as: newName, mode: mode) } catch { throw .io(error) }
    }

    func unlink(_ name: String, directory: Bool = false) throws(InstallError) {
        do { try base.unlink(name, directory: directory) } catch { throw .io(error) }
    }

    /// Writes a small file, replacing any existing one, with mode 0644 whatever the umask.
    func writeFile(_ name: String, _ bytes: [UInt8]) throws(InstallError) {
        if let existing = try status(name) {
            if existing.st_mode & S_IFMT == S_IFDIR { throw error("openat", name, code: EISDIR) }
            try unlink(name)
        }
        let file: Int32
        do { file = try base.openFile(name, O_WRONLY | O_CREAT | O_EXCL) } catch { throw .io(error) }
        defer { close(file) }
        fchmod(file, 0o644)
        do { try LinuxFS.writeAll(file, bytes, path: base.childPath(name)) } catch { throw .io(error) }
    }

    /// Reads a small file (up to 1 MiB, never through a symlink); nil when it does not exist or cannot be read.
    func readFile(_ name: String) -> [UInt8]? { try? base.readFile(name, limit: 1 << 20) }
}
