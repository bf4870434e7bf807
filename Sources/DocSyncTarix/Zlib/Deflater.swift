import CZlib

/// A gzip-wrapped deflate stream writing into a caller's sink; `fullFlush()` makes the next byte a point where raw
/// inflation can start cold. Not thread-safe: one per writer.
final class Deflater {
    private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    private var output = [UInt8](repeating: 0, count: 256 << 10)
    private let sink: (UnsafeRawBufferPointer) throws(TarixError) -> Void

    /// Compressed bytes produced so far (the gzip header included).
    var totalOut: Int64 { Int64(stream.pointee.total_out) }
    /// Uncompressed bytes consumed so far.
    var totalIn: Int64 { Int64(stream.pointee.total_in) }

    init(level: Int32, sink: @escaping (UnsafeRawBufferPointer) throws(TarixError) -> Void) throws(TarixError) {
        stream.initialize(to: z_stream())
        self.sink = sink
        let rc = deflateInit2_(
            stream, level, Z_DEFLATED, MAX_WBITS + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
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

    /// Compresses `bytes` without flushing.
    func write(_ bytes: UnsafeRawBufferPointer) throws(TarixError) {
        guard !bytes.isEmpty else { return }
        try run(bytes, Z_NO_FLUSH)
    }

    /// Emits everything pending and resets the dictionary: the next compressed byte starts a cold-start point.
    func fullFlush() throws(TarixError) { try run(UnsafeRawBufferPointer(start: nil, count: 0), Z_FULL_FLUSH) }

    /// Ends the stream (final block and gzip trailer).
    func finish() throws(TarixError) { try run(UnsafeRawBufferPointer(start: nil, count: 0), Z_FINISH) }

    private func run(_ bytes: UnsafeRawBufferPointer, _ flush: Int32) throws(TarixError) {
        stream.pointee.next_in = UnsafeMutablePointer(mutating: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self))
        stream.pointee.avail_in = UInt32(bytes.count)
        let capacity = output.count
        while true {
            let rc = output.withUnsafeMutableBytes { out -> Int32 in
                stream.pointee.next_out = out.baseAddress!.assumingMemoryBound(to: UInt8.self)
                stream.pointee.avail_out = UInt32(capacity)
                return deflate(stream, flush)
            }
            guard rc == Z_OK || rc == Z_STREAM_END || rc == Z_BUF_ERROR else {
                throw .io("zlib", "deflate failed (\(rc))")
            }
            let produced = capacity - Int(stream.pointee.avail_out)
            if produced > 0 {
                try typed {
                    try output.withUnsafeBytes { out in try sink(UnsafeRawBufferPointer(rebasing: out[0..<produced])) }
                }
            }
            if flush == Z_FINISH {
                if rc == Z_STREAM_END { break }
            } else if stream.pointee.avail_in == 0 && stream.pointee.avail_out > 0 {
                break
            }
        }
        stream.pointee.next_in = nil
    }
}
