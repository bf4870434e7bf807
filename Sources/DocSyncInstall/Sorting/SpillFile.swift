import DocSyncSupport
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// An anonymous scratch file in a folder docsync owns, reached through the folder's descriptor: `O_TMPFILE` (no
/// name at all, so nothing is left behind whatever happens), else a dot-name created exclusively, never through a
/// link, and unlinked at once. Appended to through a buffer, read back with `pread`; never synced; closed on release.
final class SpillFile {
    private static let tmpfile: Int32 = 0o20_000_000 | O_DIRECTORY  // O_TMPFILE (a macro Swift does not import)
    private static let counter = Mutex<Int>(0)
    private let fd: Int32
    let path: String
    private var buffer: [UInt8] = []
    private let bufferBytes: Int
    /// Bytes appended so far (buffered ones included).
    private(set) var count = 0

    init(in directory: SafeDirectory, bufferBytes: Int = 64 << 10) throws(SystemError) {
        path = directory.childPath(".sort-scratch")
        var descriptor = openat(directory.fd, ".", Self.tmpfile | O_RDWR | O_CLOEXEC, 0o600)
        if descriptor < 0, [EOPNOTSUPP, EISDIR, EINVAL, ENOENT].contains(errno) {
            let serial = Self.counter.withLock { value in
                value += 1
                return value
            }
            let name = ".sort-\(getpid())-\(serial)"
            descriptor = openat(directory.fd, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if descriptor >= 0 { _ = unlinkat(directory.fd, name, 0) }
        }
        if descriptor < 0 { throw SystemError("open scratch file", path: path) }
        fd = descriptor
        self.bufferBytes = bufferBytes
        buffer.reserveCapacity(bufferBytes)
    }

    deinit { close(fd) }

    func append(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        buffer.append(contentsOf: bytes)
        count += bytes.count
        if buffer.count >= bufferBytes { try flush() }
    }

    /// Appends `length` as 4 little-endian bytes.
    func append(length: UInt32) throws(SystemError) {
        for shift in stride(from: 0, to: 32, by: 8) { buffer.append(UInt8(truncatingIfNeeded: length >> shift)) }
        count += 4
        if buffer.count >= bufferBytes { try flush() }
    }

    func flush() throws(SystemError) {
        guard !buffer.isEmpty else { return }
        try LinuxFS.writeAll(fd, buffer, path: path)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Reads up to `into.count` bytes at `offset` (everything appended is flushed first); 0 past the end.
    func read(at offset: Int, into: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        try flush()
        while true {
            let n = pread(fd, into.baseAddress, into.count, off_t(offset))
            if n >= 0 { return n }
            if errno != EINTR { throw SystemError("read scratch file", path: path) }
        }
    }
}
