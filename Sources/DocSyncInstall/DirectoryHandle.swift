import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

/// An open directory (`O_DIRECTORY | O_NOFOLLOW`) and the `*at` calls the installer makes relative to it.
/// Closed on deinit. Errors are `InstallError.io` naming the full path.
final class DirectoryHandle {
    let fd: Int32
    let path: String

    private init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    deinit { close(fd) }

    static func open(_ path: String) throws(InstallError) -> DirectoryHandle {
        let fd = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd < 0 { throw .io(SystemError("open", path: path)) }
        return DirectoryHandle(fd: fd, path: path)
    }

    /// Opens (creating when `create`) the subdirectory `name`, never following a symlink.
    func directory(_ name: String, create: Bool = false) throws(InstallError) -> DirectoryHandle {
        if create, mkdirat(fd, name, 0o755) != 0, errno != EEXIST { throw error("mkdirat", name) }
        let child = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        if child < 0 { throw error("openat", name) }
        return DirectoryHandle(fd: child, path: "\(path)/\(name)")
    }

    func error(_ call: String, _ name: String, code: Int32 = errno) -> InstallError {
        .io(SystemError(call, path: "\(path)/\(name)", code: code))
    }

    func sync() throws(InstallError) {
        if fsync(fd) != 0 { throw .io(SystemError("fsync", path: path)) }
    }

    /// Entry names (without "." and ".."), each with its d_type.
    func entries() throws(InstallError) -> [(name: String, type: UInt8)] {
        let dupFD = dup(fd)
        guard dupFD >= 0, let dir = fdopendir(dupFD) else { throw .io(SystemError("fdopendir", path: path)) }
        defer { closedir(dir) }
        rewinddir(dir)
        var result: [(String, UInt8)] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name == "." || name == ".." { continue }
            result.append((name, entry.pointee.d_type))
        }
        return result
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

    func rename(_ name: String, to target: DirectoryHandle, as newName: String) throws(InstallError) {
        do {
            try LinuxFS.rename(from: name, in: fd, to: newName, in: target.fd)
        } catch {
            throw .io(SystemError("rename", path: "\(path)/\(name) -> \(target.path)/\(newName)", code: error.code))
        }
    }

    func unlink(_ name: String, directory: Bool = false) throws(InstallError) {
        if unlinkat(fd, name, directory ? AT_REMOVEDIR : 0) != 0 && errno != ENOENT { throw error("unlinkat", name) }
    }

    /// Writes a small file, replacing any existing one, with mode 0644 whatever the umask.
    func writeFile(_ name: String, _ bytes: [UInt8]) throws(InstallError) {
        if let existing = try status(name) {
            if existing.st_mode & S_IFMT == S_IFDIR { throw error("openat", name, code: EISDIR) }
            try unlink(name)
        }
        let file = openat(fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        if file < 0 { throw error("openat", name) }
        defer { close(file) }
        fchmod(file, 0o644)
        let written = bytes.withUnsafeBytes { Glibc.write(file, $0.baseAddress, $0.count) }
        if written != bytes.count { throw error("write", name) }
    }

    /// Reads a small file (up to 1 MiB); nil when it does not exist.
    func readFile(_ name: String) -> [UInt8]? {
        let file = openat(fd, name, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { return nil }
        defer { close(file) }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while out.count < 1 << 20 {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(file, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            out += buffer[..<n]
        }
        return out
    }
}
