import CDocSyncSys

#if canImport(Glibc)
    import Glibc
#endif

/// Reads one regular file named by an untrusted relative path, never leaving a base folder: `..`, absolute paths,
/// NUL bytes, overlong paths, and symlinks pointing outside the base are refused; a FIFO or device never blocks the
/// reader (opened non-blocking, then refused as not a regular file); the size is bounded.
///
/// The open is `openat2(2)` with `RESOLVE_BENEATH` from the base's descriptor, so the kernel resolves every
/// component, symlinks included, and refuses (EXDEV) any step out of the base, atomically: no window between a check
/// and the open. Where `openat2` is missing (ENOSYS: kernels before 5.6, some seccomp filters), each component is
/// opened with `O_NOFOLLOW` from the previous one's descriptor, so no symlink at all is followed.
package enum ContainedFile {
    /// At most this many bytes in a relative path (PATH_MAX).
    package static let maxPathBytes = 4096

    /// Why a path or file was refused.
    package enum Failure: Error, Equatable, Sendable {
        /// The path itself is unusable (empty, absolute, `..`, NUL, a control character, overlong).
        case invalidPath(String)
        /// Resolving it would leave the base (a symlink pointing outside, or to an absolute path).
        case outside
        /// Nothing by that name.
        case notFound
        /// A folder, FIFO, socket or device.
        case notRegular
        /// Larger than the limit (its size in bytes).
        case tooLarge(Int64)
        /// Any other system failure.
        case io(SystemError)
        /// Only with `cachedOnly`: resolving the path needs what the kernel has not cached (or a kernel before
        /// 5.12); open it on a thread that may block instead.
        case wouldBlock
    }

    /// The path's components (`.` and empty ones dropped), or why it is refused. Pure: the table tests' subject.
    package static func components(_ path: String) -> Result<[String], Failure> {
        if path.isEmpty { return .failure(.invalidPath("empty")) }
        if path.utf8.contains(0) { return .failure(.invalidPath("contains NUL")) }
        if path.utf8.count > maxPathBytes { return .failure(.invalidPath("longer than \(maxPathBytes) bytes")) }
        if path.hasPrefix("/") { return .failure(.invalidPath("absolute")) }
        if path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return .failure(.invalidPath("contains control characters"))
        }
        var parts: [String] = []
        for component in path.split(separator: "/", omittingEmptySubsequences: true) where component != "." {
            if component == ".." { return .failure(.invalidPath("'..' leaves the folder")) }
            if component.utf8.count > PathComponent.maxBytes {
                return .failure(.invalidPath("a component is longer than \(PathComponent.maxBytes) bytes"))
            }
            parts.append(String(component))
        }
        if parts.isEmpty { return .failure(.invalidPath("names no file")) }
        return .success(parts)
    }

    /// Whether ``components(_:)`` accepts `path` and joins its parts back to `path` itself (no `.`, no empty
    /// component, no trailing `/`): then `path` can be opened as it is. One scan of the bytes, no allocation, for
    /// the server's warm path; false sends the caller to ``components(_:)``, which decides.
    package static func isCanonical(_ path: String) -> Bool {
        let utf8 = path.utf8
        guard !utf8.isEmpty, utf8.count <= maxPathBytes else { return false }
        var length = 0
        var dots = 0  // the component so far is this many dots (and nothing else) when dots == length
        for byte in utf8 {
            if byte < 0x20 || byte == 0x7f { return false }  // NUL and control characters (UTF-8 keeps them 1 byte)
            if byte == UInt8(ascii: "/") {
                if length == 0 || (dots == length && length <= 2) { return false }  // empty, `.`, `..`
                length = 0
                dots = 0
                continue
            }
            length += 1
            if byte == UInt8(ascii: ".") { dots += 1 }
            if length > PathComponent.maxBytes { return false }
        }
        return length > 0 && !(dots == length && length <= 2)
    }

    /// The bytes of `path` below the folder open as `base` (a blocking call: run it on a `WorkerThread`).
    /// `beneath: false` skips `openat2` and takes the fallback every time (for its tests).
    package static func read(_ path: String, below base: Int32, limit: Int, beneath: Bool = true) throws(Failure)
        -> [UInt8]
    {
        let (fd, size) = try openForReading(path, below: base, limit: limit, beneath: beneath)
        defer { close(fd) }
        var out: [UInt8] = []
        out.reserveCapacity(size)
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n < 0 { throw .io(SystemError("read", path: path)) }
            if n == 0 { break }
            guard out.count + n <= limit else { throw .tooLarge(Int64(out.count + n)) }  // it grew meanwhile
            out += buffer[..<n]
        }
        return out
    }

    /// `path` below the folder open as `base`, opened for reading with every check of ``read(_:below:limit:beneath:)``
    /// (the contained open, a regular file, at most `limit` bytes when opened): its descriptor, which the caller
    /// closes, and its size. For callers that read the bytes into a buffer of their own (`docsync serve`). The
    /// descriptor is non-blocking, which regular files ignore; a file that grows after the open is the caller's to
    /// bound. `cachedOnly` adds `RESOLVE_CACHED`: the open never waits for the disk (``Failure/wouldBlock``
    /// instead), for a caller on a thread that must not block.
    package static func openForReading(
        _ path: String, below base: Int32, limit: Int, beneath: Bool = true, cachedOnly: Bool = false
    ) throws(Failure) -> (descriptor: Int32, size: Int) {
        let fd: Int32
        if cachedOnly, isCanonical(path) {
            fd = try openCached(path, below: base)  // the warm path: no split and join
        } else {
            let parts = try components(path).get()
            fd =
                cachedOnly
                ? try openCached(parts.joined(separator: "/"), below: base)
                : beneath ? try open(parts, below: base) : try openComponents(parts, below: base)
        }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let error = SystemError("fstat", path: path)
            close(fd)
            throw .io(error)
        }
        guard st.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw .notRegular
        }
        guard st.st_size <= Int64(limit) else {
            close(fd)
            throw .tooLarge(Int64(st.st_size))
        }
        return (fd, Int(st.st_size))
    }

    /// A read-only descriptor of `parts` below `base`, non-blocking (a FIFO must not hang the open).
    private static func open(_ parts: [String], below base: Int32) throws(Failure) -> Int32 {
        let joined = parts.joined(separator: "/")
        let fd = ds_openat_beneath(base, joined, O_RDONLY | O_NONBLOCK | O_NOCTTY)
        if fd >= 0 { return fd }
        switch errno {
        case ENOSYS: return try openComponents(parts, below: base)
        case EXDEV: throw .outside
        case ENOENT, ENOTDIR: throw .notFound
        case ELOOP: throw .outside
        default: throw .io(SystemError("openat2", path: joined))
        }
    }

    /// True when the page cache holds every page of the first `size` bytes of `descriptor` (`cachestat`), so that
    /// sending them (`sendfile`) will not wait for the disk; false when some are not cached; nil when the kernel
    /// cannot tell (no `cachestat`: before Linux 6.5) — then read them with ``readCached(_:into:at:)``.
    package static func isCached(_ descriptor: Int32, size: Int) -> Bool? {
        guard size > 0 else { return true }
        let pages = ds_cached_pages(descriptor, UInt64(size))
        if pages < 0 { return errno == ENOSYS || errno == EPERM || errno == EOPNOTSUPP ? nil : false }
        return pages >= (size + Self.pageSize - 1) / Self.pageSize
    }

    private static let pageSize = max(4096, Int(sysconf(Int32(_SC_PAGESIZE))))

    /// `pread` that never waits for the disk (`preadv2` with `RWF_NOWAIT`): the bytes the page cache holds now
    /// from `offset` on, at most `buffer.count`; -1 with `errno` `EAGAIN` when none (then read on a thread that
    /// may block).
    package static func readCached(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int)
        -> Int
    {
        ds_pread_nowait(descriptor, buffer.baseAddress, buffer.count, Int64(offset))
    }

    /// ``open(_:below:)`` with `RESOLVE_CACHED`; ``Failure/wouldBlock`` where that or `openat2` is missing.
    private static func openCached(_ joined: String, below base: Int32) throws(Failure) -> Int32 {
        let fd = ds_openat_beneath_cached(base, joined, O_RDONLY | O_NONBLOCK | O_NOCTTY)
        if fd >= 0 { return fd }
        switch errno {
        case EAGAIN, ENOSYS, EINVAL: throw .wouldBlock
        case EXDEV, ELOOP: throw .outside
        case ENOENT, ENOTDIR: throw .notFound
        default: throw .io(SystemError("openat2", path: joined))
        }
    }

    /// The fallback: one `O_NOFOLLOW` open per component; any symlink is refused as `outside`.
    private static func openComponents(_ parts: [String], below base: Int32) throws(Failure) -> Int32 {
        var current = dup(base)
        if current < 0 { throw .io(SystemError("dup", path: ".")) }
        for (k, part) in parts.enumerated() {
            let last = k == parts.count - 1
            let flags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC | (last ? O_NONBLOCK | O_NOCTTY : O_DIRECTORY)
            let next = openat(current, part, flags)
            let code = errno
            var st = stat()
            let isLink =
                next < 0 && fstatat(current, part, &st, AT_SYMLINK_NOFOLLOW) == 0 && st.st_mode & S_IFMT == S_IFLNK
            close(current)
            if next < 0 {
                if isLink { throw .outside }  // ELOOP, or ENOTDIR with O_DIRECTORY: a symlink, not followed here
                switch code {
                case ENOENT, ENOTDIR: throw .notFound
                default: throw .io(SystemError("openat", path: parts[...k].joined(separator: "/"), code: code))
                }
            }
            current = next
        }
        return current
    }
}
