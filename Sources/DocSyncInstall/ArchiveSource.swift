import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Where archive bytes come from. The reader pulls blocks through `read(into:)`; a source that can seek (a complete
/// file) lets libarchive's zip reader use the central directory. A source fed by a download still in progress can
/// implement `read` by waiting for more bytes and return `nil` from `seek`.
package protocol ArchiveSource: AnyObject, Sendable {
    /// Fills the front of `buffer`; returns the byte count, 0 at the end of the archive.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int
    /// Moves the read position (`whence` as in lseek); nil when the source cannot seek.
    func seek(to offset: Int64, whence: Int32) -> Int64?
    /// The archive's full size when known (used for the expansion-ratio cap and the free-space estimate).
    var byteCount: Int64? { get }
    /// A name for error messages.
    var displayName: String { get }
    /// Called after the archive's end was read cleanly and before anything is published: a source fed by a download
    /// waits here until the download is complete and verified, and throws when it is not.
    func awaitVerifiedEnd() throws(SystemError)
    /// Where the verified bytes came from, when the source knows (recorded as the docset's source URL).
    var verifiedURL: String? { get }
    /// True when the source learns the archive's SHA-256 itself (``verifiedSHA256`` after ``awaitVerifiedEnd()``),
    /// so the extraction need not hash the bytes it reads a second time.
    var providesSHA256: Bool { get }
    /// The verified archive's SHA-256 (lowercase hex), when the source knows it after ``awaitVerifiedEnd()``.
    var verifiedSHA256: String? { get }
    /// The extraction failed on the writing side: a blocked `read` should return or throw soon.
    func cancel()
    /// The complete archive file, once ``awaitVerifiedEnd()`` returned (nil: the source has no file, e.g. a pipe);
    /// the tarix layout reads it a second time to build its index.
    var completedFile: String? { get }
}

extension ArchiveSource {
    package func awaitVerifiedEnd() throws(SystemError) {}
    package var verifiedURL: String? { nil }
    package var providesSHA256: Bool { false }
    package var verifiedSHA256: String? { nil }
    package func cancel() {}
    package var completedFile: String? { nil }
}

/// A complete archive file on disk.
package final class FileArchiveSource: ArchiveSource {
    package let path: String
    package let byteCount: Int64?
    private let fd: Int32

    package init(path: String) throws(SystemError) {
        guard let fd = try RegularFile.open(path, followSymlink: true)?.fd else {
            throw SystemError("open", path: path, code: ENOENT)
        }
        var st = stat()
        if fstat(fd, &st) != 0 {
            let error = SystemError("fstat", path: path)
            close(fd)
            throw error
        }
        if (st.st_mode & S_IFMT) != S_IFREG {
            close(fd)
            throw SystemError("open", path: path, code: EINVAL)
        }
        self.fd = fd
        self.path = path
        self.byteCount = Int64(st.st_size)
        _ = posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL)
    }

    deinit { close(fd) }

    package var displayName: String { path }

    package var completedFile: String? { path }

    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        while true {
            let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            if errno != EINTR { throw SystemError("read", path: path) }
        }
    }

    package func seek(to offset: Int64, whence: Int32) -> Int64? {
        let position = lseek(fd, off_t(offset), whence)
        return position < 0 ? nil : Int64(position)
    }
}
