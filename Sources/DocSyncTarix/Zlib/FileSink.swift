import DocSyncSupport
import Foundation

/// Buffers small writes (one flushed record is a few KB) into large `write(2)` calls on a descriptor the caller
/// owns. Counts what reached the file, and hashes it (SHA-256) when asked to.
final class FileSink {
    private let fd: Int32
    private let name: String
    private var buffer: [UInt8] = []
    private let capacity: Int
    private(set) var written: Int64 = 0
    /// The SHA-256 of every byte appended (nil unless `hashing`).
    private(set) var hash: SHA256?

    init(fd: Int32, name: String, capacity: Int = 1 << 20, hashing: Bool = false) {
        self.fd = fd
        self.name = name
        self.capacity = capacity
        hash = hashing ? SHA256() : nil
        buffer.reserveCapacity(capacity)
    }

    func append(_ bytes: UnsafeRawBufferPointer) throws(TarixError) {
        hash?.update(bytes)
        if buffer.count + bytes.count > capacity { try flush() }
        if bytes.count >= capacity {
            try writeAll(bytes)
        } else {
            buffer.append(contentsOf: bytes)
        }
    }

    func flush() throws(TarixError) {
        guard !buffer.isEmpty else { return }
        try typed { try buffer.withUnsafeBytes { bytes in try writeAll(bytes) } }
        buffer.removeAll(keepingCapacity: true)
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws(TarixError) {
        var at = 0
        while at < bytes.count {
            let n = write(fd, bytes.baseAddress!.advanced(by: at), bytes.count - at)
            if n < 0 {
                if errno == EINTR { continue }
                throw .io(name, "write failed: \(String(cString: strerror(errno)))")
            }
            at += n
        }
        written += Int64(bytes.count)
    }
}
