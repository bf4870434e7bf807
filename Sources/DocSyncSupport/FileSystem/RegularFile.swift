#if canImport(Glibc)
    import Glibc
#endif

/// The one way docsync opens a file it did not write itself (a docset's `meta.json`, `Info.plist`, icons and
/// index, the configuration, a lock file, a local feed or archive, an adopted folder's files).
///
/// The open never blocks and never reads what is not a regular file: `O_NONBLOCK` makes opening a FIFO or a device
/// return at once, `fstat` then refuses anything but a regular file (``SystemError/notRegularFile(_:)``), and a read
/// stops after `limit` bytes (a file whose size is already over the limit is refused before a byte is read). Without
/// `followSymlink` the last component is opened `O_NOFOLLOW` (a link is ``SystemError/symlink(_:)``). So a FIFO named
/// `meta.json`, or a link to `/dev/zero`, cannot hang or exhaust `status`, `sync`, `verify` or `adopt`.
package enum RegularFile {
    /// Opens `name` (relative to `directory`, or a path with `AT_FDCWD`) for reading; nil when it does not exist.
    /// The returned descriptor is blocking again; the caller closes it. `path` names the file in errors.
    package static func open(
        _ name: String, in directory: Int32 = AT_FDCWD, path: String? = nil, followSymlink: Bool = false
    ) throws(SystemError) -> (fd: Int32, size: Int64)? {
        let shown = path ?? name
        let flags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (followSymlink ? 0 : O_NOFOLLOW)
        let fd = openat(directory, name, flags)
        if fd < 0 {
            let code = errno
            if code == ENOENT { return nil }
            if code == ELOOP, !followSymlink, isSymlink(name, in: directory) { throw .symlink(shown) }
            throw SystemError("open", path: shown, code: code)
        }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let error = SystemError("fstat", path: shown)
            close(fd)
            throw error
        }
        guard st.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw .notRegularFile(shown, code: st.st_mode & S_IFMT == S_IFDIR ? EISDIR : EINVAL)
        }
        let status = fcntl(fd, F_GETFL)
        if status >= 0 { _ = fcntl(fd, F_SETFL, status & ~O_NONBLOCK) }
        return (fd, Int64(st.st_size))
    }

    /// Reads the whole regular file `name` (see ``open(_:in:path:followSymlink:)``); nil when it does not exist.
    /// A file of more than `limit` bytes is an `EFBIG` error.
    package static func read(
        _ name: String, in directory: Int32 = AT_FDCWD, path: String? = nil, limit: Int, followSymlink: Bool = false
    ) throws(SystemError) -> [UInt8]? {
        let shown = path ?? name
        guard let (fd, size) = try open(name, in: directory, path: shown, followSymlink: followSymlink) else {
            return nil
        }
        defer { close(fd) }
        let limit = max(0, limit)
        if size > Int64(limit) { throw SystemError("read", path: shown, code: EFBIG) }
        // Read straight into the result, sized by `fstat` plus one byte (to see the end or a file that grew): no
        // zeroed scratch buffer nor copy per file (a docset's pages are read one by one for its text index).
        var failure: SystemError?
        var full = false
        var out = [UInt8](unsafeUninitializedCapacity: Int(size) + 1) { bytes, count in
            guard let base = bytes.baseAddress else { return }
            while count < bytes.count {
                let n = Glibc.read(fd, base + count, bytes.count - count)
                if n < 0, errno == EINTR { continue }
                if n < 0 {
                    failure = SystemError("read", path: shown)
                    return
                }
                if n == 0 { return }
                count += n
            }
            full = true
        }
        if let failure { throw failure }
        if out.count > limit { throw SystemError("read", path: shown, code: EFBIG) }
        guard full else { return out }
        // The file grew since `fstat`: read on until its end or past the limit.
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let room = min(buffer.count, limit - out.count + 1)
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, room) }
            if n < 0, errno == EINTR { continue }
            if n < 0 { throw SystemError("read", path: shown) }
            if n == 0 { return out }
            out += buffer[..<n]
            if out.count > limit { throw SystemError("read", path: shown, code: EFBIG) }
        }
    }

    /// Reads the file at `path` as `read(_:limit:)` does, following a symlink (a configuration file or a local feed
    /// may be a link the user made; what it reaches must still be a regular file).
    package static func read(path: String, limit: Int) throws(SystemError) -> [UInt8]? {
        try read(path, path: path, limit: limit, followSymlink: true)
    }

    private static func isSymlink(_ name: String, in directory: Int32) -> Bool {
        var st = stat()
        return fstatat(directory, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && st.st_mode & S_IFMT == S_IFLNK
    }
}
