import CZlib

/// A zlib inflate stream (raw deflate with `windowBits` -15, gzip with 31). Buffers are passed per call; zlib keeps
/// only its own window between calls. Not thread-safe: one per reader.
final class Inflater {
    private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)

    /// One call's outcome: zlib's return code and the bytes consumed and produced.
    struct Step {
        let code: Int32
        let consumed: Int
        let produced: Int
    }

    init(windowBits: Int32) throws(TarixError) {
        stream.initialize(to: z_stream())
        let rc = inflateInit2_(stream, windowBits, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard rc == Z_OK else {
            stream.deallocate()
            throw .io("zlib", "inflateInit2 failed (\(rc))")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
    }

    /// Forgets the window and any partial block: the next byte fed must start a deflate block.
    func reset() { inflateReset(stream) }

    /// Takes over `other`'s whole state (window, partial block, pending output): this stream goes on where that one
    /// stopped.
    func copy(from other: Inflater) throws(TarixError) {
        inflateEnd(stream)
        let rc = inflateCopy(stream, other.stream)
        guard rc == Z_OK else {
            _ = inflateInit2_(stream, -MAX_WBITS, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
            throw .io("zlib", "inflateCopy failed (\(rc))")
        }
    }

    /// zlib's `data_type` after the last call: unused bits + 64 (in the last block) + 128 (at a block boundary).
    var dataType: Int32 { stream.pointee.data_type }

    /// True when the last call stopped exactly between two deflate blocks with no bits left over: a byte-aligned
    /// point where a fresh raw inflater could take over.
    var atAlignedBlockBoundary: Bool { dataType & 128 != 0 && dataType & 63 == 0 }

    /// zlib's message for the last error, if any.
    var message: String { stream.pointee.msg.map { String(cString: $0) } ?? "unknown zlib error" }

    /// Inflates from `input` into `output` (which may be empty, to step through block headers with `Z_BLOCK`).
    func inflate(_ input: UnsafeRawBufferPointer, _ output: UnsafeMutableRawBufferPointer, flush: Int32) -> Step {
        var scratch: UInt8 = 0
        return withUnsafeMutablePointer(to: &scratch) { spare in
            stream.pointee.next_in = UnsafeMutablePointer(
                mutating: input.baseAddress?.assumingMemoryBound(to: UInt8.self))
            stream.pointee.avail_in = UInt32(input.count)
            stream.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? spare
            stream.pointee.avail_out = UInt32(output.count)
            let rc = CZlib.inflate(stream, flush)
            let step = Step(
                code: rc, consumed: input.count - Int(stream.pointee.avail_in),
                produced: output.count - Int(stream.pointee.avail_out))
            stream.pointee.next_in = nil
            stream.pointee.next_out = nil
            return step
        }
    }
}
