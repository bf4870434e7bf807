import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

extension NameTable {
    /// A scratch file for a part of `names.bin` made before it can be written (the trigram postings, made before
    /// the parts the file puts ahead of them are known; the display records, spilled in insertion order): appended
    /// to, then read back in blocks. Unlinked as soon as it is created (only its
    /// descriptor names it, so nothing is left behind whatever happens), never synced, closed on release. The first
    /// write error is kept and reported by `copy`.
    final class ScratchFile {
        private let blockBytes: Int
        private let fd: Int32
        private let path: String
        private let docset: String
        private var buffer: [UInt8] = []
        private var failure: Int32 = 0
        /// Bytes appended so far.
        private(set) var count = 0

        init(path: String, docset: String, blockBytes: Int = 256 << 10) throws(DocsetIndexError) {
            fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if fd < 0 { throw .io(docset, "\(path): \(String(cString: strerror(errno)))") }
            unlink(path)
            self.path = path
            self.docset = docset
            self.blockBytes = blockBytes
            buffer.reserveCapacity(blockBytes)
        }

        deinit { close(fd) }

        func append(_ bytes: UnsafeRawBufferPointer) {
            if bytes.count >= blockBytes {  // a run of postings: written as it is, not buffered
                flush()
                if failure == 0 {
                    do throws(SystemError) { try LinuxFS.writeAll(fd, bytes, path: path) } catch {
                        failure = error.code
                    }
                }
                count += bytes.count
                return
            }
            buffer.append(contentsOf: bytes)
            count += bytes.count
            if buffer.count >= blockBytes { flush() }
        }

        private func flush() {
            if failure == 0, !buffer.isEmpty {
                do throws(SystemError) { try LinuxFS.writeAll(fd, buffer, path: path) } catch { failure = error.code }
            }
            buffer.removeAll(keepingCapacity: true)
        }

        /// Hands every byte appended to `body`, in order, one block at a time with its offset (may be called again).
        func blocks(_ body: (_ offset: Int, _ block: ArraySlice<UInt8>) -> Void) throws(DocsetIndexError) {
            flush()
            if failure != 0 { throw .io(docset, "write \(path): \(String(cString: strerror(failure)))") }
            buffer.append(contentsOf: repeatElement(0, count: blockBytes))
            defer { buffer.removeAll(keepingCapacity: true) }
            var offset = 0
            while offset < count {
                let wanted = min(blockBytes, count - offset)
                let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, wanted, off_t(offset)) }
                if n < 0, errno == EINTR { continue }
                guard n > 0 else {
                    let reason = n < 0 ? String(cString: strerror(errno)) : "ended early"
                    throw .io(docset, "read \(path): \(reason)")
                }
                body(offset, buffer[0..<n])
                offset += n
            }
        }
    }
}
