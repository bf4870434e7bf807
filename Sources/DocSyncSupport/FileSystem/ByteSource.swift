#if canImport(Glibc)
    import Glibc
#endif

/// Bytes read at an offset: the one read seam of the tarix store's walks (indexing, checking a publisher's index,
/// re-encoding). A complete file answers at once (`FileByteSource`); an archive still downloading
/// (`GrowingFileSource`) waits for the bytes, and throws when the download failed, restarted or was cancelled.
package protocol ByteSource: AnyObject, Sendable {
    /// Fills the front of `buffer` with the bytes at `offset`; returns the byte count, 0 only at the end.
    func readAt(offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int
    /// A name for error messages.
    var sourceName: String { get }
}

/// A complete file read with `pread` through a descriptor the caller owns (and closes after this object is gone).
package final class FileByteSource: ByteSource {
    package let fd: Int32
    package let sourceName: String

    package init(fd: Int32, name: String) {
        self.fd = fd
        self.sourceName = name
    }

    package func readAt(offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        while true {
            let n = pread(fd, buffer.baseAddress, buffer.count, off_t(offset))
            if n >= 0 { return n }
            if errno != EINTR { throw SystemError("pread", path: sourceName) }
        }
    }
}
