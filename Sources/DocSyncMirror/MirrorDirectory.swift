#if canImport(Glibc)
    import Glibc
#endif

/// A directory of the mirror's tree held open by descriptor: every entry is reached relative to it with
/// `O_NOFOLLOW` (a symlink planted in the tree is refused, never followed), files are replaced by rename.
final class MirrorDirectory {
    let fd: Int32
    let path: String

    /// Opens (creating when asked) `path`, refusing a symlink as the last component.
    init(path: String, create: Bool = false) throws(MirrorError) {
        if create, mkdir(path, 0o755) != 0, errno != EEXIST { throw .system("mkdir", path, errno: errno) }
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        if fd < 0 { throw .system("open", path, errno: errno) }
        self.fd = fd
        self.path = path
    }

    private init(fd: Int32, path: String) {
        self.fd = fd
        self.path = path
    }

    deinit { close(fd) }

    /// A child directory, created when missing.
    func directory(_ name: String, create: Bool = true) throws(MirrorError) -> MirrorDirectory {
        if create, mkdirat(fd, name, 0o755) != 0, errno != EEXIST { throw .system("mkdirat", at(name), errno: errno) }
        let child = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        if child < 0 { throw .system("openat", at(name), errno: errno) }
        return MirrorDirectory(fd: child, path: at(name))
    }

    func at(_ name: String) -> String { "\(path)/\(name)" }

    /// Entry names (no `.`/`..`).
    func entries() -> [String] {
        let copy = dup(fd)
        guard copy >= 0, let stream = fdopendir(copy) else { return [] }
        defer { closedir(stream) }
        rewinddir(stream)
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// The size of a regular file here, nil when absent or not a regular file.
    func fileSize(_ name: String) -> Int64? {
        var st = stat()
        guard fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(st.st_size)
    }

    func sync() throws(MirrorError) {
        if fsync(fd) != 0 { throw .system("fsync", path, errno: errno) }
    }

    /// Writes `bytes` to a temporary name, fsyncs it and renames it over `name`: a reader sees the old file or the
    /// new one, never a part.
    func replaceFile(_ name: String, _ bytes: [UInt8]) throws(MirrorError) {
        let temporary = ".\(name).tmp"
        unlinkat(fd, temporary, 0)
        let file = openat(fd, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        if file < 0 { throw .system("openat", at(temporary), errno: errno) }
        defer { close(file) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(file, $0.baseAddress! + offset, bytes.count - offset) }
            if written < 0, errno == EINTR { continue }
            if written <= 0 { throw .system("write", at(temporary), errno: errno) }
            offset += written
        }
        if fsync(file) != 0 { throw .system("fsync", at(temporary), errno: errno) }
        if renameat(fd, temporary, fd, name) != 0 { throw .system("renameat", at(name), errno: errno) }
    }

    /// Puts the file at `source` here as `name`, durably: a hard link when both are on one file system (no second
    /// copy), a copy otherwise; fsynced under a temporary name, then renamed into place.
    func place(_ name: String, from source: String) throws(MirrorError) {
        let temporary = ".\(name).tmp"
        unlinkat(fd, temporary, 0)
        if linkat(AT_FDCWD, source, fd, temporary, 0) != 0 {
            guard errno == EXDEV || errno == EPERM || errno == EMLINK else {
                throw .system("linkat", "\(source) -> \(at(temporary))", errno: errno)
            }
            try copy(from: source, to: temporary)
        }
        let file = openat(fd, temporary, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        if file < 0 { throw .system("openat", at(temporary), errno: errno) }
        defer { close(file) }
        if fsync(file) != 0 { throw .system("fsync", at(temporary), errno: errno) }
        if renameat(fd, temporary, fd, name) != 0 { throw .system("renameat", at(name), errno: errno) }
    }

    private func copy(from source: String, to name: String) throws(MirrorError) {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        if input < 0 { throw .system("open", source, errno: errno) }
        defer { close(input) }
        let output = openat(fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        if output < 0 { throw .system("openat", at(name), errno: errno) }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count < 0 { throw .system("read", source, errno: errno) }
            if count == 0 { break }
            var offset = 0
            while offset < count {
                let written = buffer.withUnsafeBytes { write(output, $0.baseAddress! + offset, count - offset) }
                if written < 0, errno == EINTR { continue }
                if written <= 0 { throw .system("write", at(name), errno: errno) }
                offset += written
            }
        }
    }

    /// Removes a file this publisher created (never follows a symlink; a missing one is fine).
    func removeFile(_ name: String) throws(MirrorError) {
        if unlinkat(fd, name, 0) != 0, errno != ENOENT { throw .system("unlinkat", at(name), errno: errno) }
    }

    /// Removes an empty directory (a missing one is fine).
    func removeDirectory(_ name: String) throws(MirrorError) {
        if unlinkat(fd, name, AT_REMOVEDIR) != 0, errno != ENOENT {
            throw .system("unlinkat", at(name), errno: errno)
        }
    }
}
