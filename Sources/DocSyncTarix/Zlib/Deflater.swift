import CZlib

/// A raw deflate stream (no gzip or zlib wrapper) compressing into a caller's `DeflateOutput`; `ParallelDeflater`
/// gives each of its worker threads one and writes the gzip header and trailer itself. A full flush makes the next
/// byte a point where raw inflation can start cold. Not thread-safe: one thread at a time.
///
/// `@unchecked Sendable`: each is handed to one worker thread when it starts, the only one that uses it.
final class Deflater: @unchecked Sendable {
    private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)

    init(level: Int32) throws(TarixError) {
        stream.initialize(to: z_stream())
        let rc = deflateInit2_(
            stream, level, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
            Int32(MemoryLayout<z_stream>.size))
        guard rc == Z_OK else {
            stream.deallocate()
            throw .io("zlib", "deflateInit2 failed (\(rc))")
        }
    }

    deinit {
        deflateEnd(stream)
        stream.deallocate()
    }

    /// Compresses `bytes` into `output` and applies `flush` (`Z_NO_FLUSH`, `Z_FULL_FLUSH` or `Z_FINISH`): after a
    /// full flush everything consumed is in `output` and the dictionary is reset.
    func compress(_ bytes: UnsafeRawBufferPointer, flush: Int32, into output: DeflateOutput) throws(TarixError) {
        stream.pointee.next_in = UnsafeMutablePointer(mutating: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self))
        stream.pointee.avail_in = UInt32(bytes.count)
        defer { stream.pointee.next_in = nil }
        while true {
            if output.spare < 64 { output.grow() }
            let room = output.spare
            stream.pointee.next_out = output.end.assumingMemoryBound(to: UInt8.self)
            stream.pointee.avail_out = UInt32(room)
            let rc = deflate(stream, flush)
            output.count += room - Int(stream.pointee.avail_out)
            stream.pointee.next_out = nil
            guard rc == Z_OK || rc == Z_STREAM_END || rc == Z_BUF_ERROR else {
                throw .io("zlib", "deflate failed (\(rc))")
            }
            if flush == Z_FINISH {
                if rc == Z_STREAM_END { return }
            } else if stream.pointee.avail_in == 0 && stream.pointee.avail_out > 0 {
                return
            }
        }
    }
}

/// A growable byte buffer a `Deflater` writes into (one per job, reused).
///
/// `@unchecked Sendable`: it belongs to its `DeflateJob` and moves with it (see there).
final class DeflateOutput: @unchecked Sendable {
    private(set) var bytes: UnsafeMutableRawBufferPointer
    /// Bytes written so far.
    var count = 0

    init(capacity: Int) { bytes = .allocate(byteCount: max(capacity, 256), alignment: 16) }

    deinit { bytes.deallocate() }

    /// Room left.
    var spare: Int { bytes.count - count }
    /// Where the next byte goes.
    var end: UnsafeMutableRawPointer { bytes.baseAddress! + count }
    /// What was written.
    var written: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[0..<count]) }

    /// Doubles the capacity, keeping what was written.
    func grow() {
        let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count * 2, alignment: 16)
        larger.baseAddress!.copyMemory(from: bytes.baseAddress!, byteCount: count)
        bytes.deallocate()
        bytes = larger
    }
}
