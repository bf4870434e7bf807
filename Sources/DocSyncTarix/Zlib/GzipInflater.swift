import CIsal

#if canImport(Glibc)
    import Glibc
#endif

/// Inflates a gzip stream with ISA-L's igzip (2–3× zlib's speed) so that libarchive reads plain tar. Each member's
/// header, CRC-32 and length are checked; concatenated members are inflated one after another; bytes after the last
/// member that do not start a new member are ignored, as libarchive's gzip filter and gzip(1) do.
/// I/O stays with the caller: it feeds the input buffer (``inputSpace()`` then ``supplied(_:)``) when ``step()``
/// asks for input. DocSyncInstall's archive reader uses it: this module is ISA-L's only user (``RawInflater`` too).
package final class GzipInflater {
    /// What ``step()`` has for the caller.
    package enum Step {
        /// Decompressed bytes, valid until the next call.
        case output(UnsafeRawBufferPointer)
        /// The input buffer is used up: fill ``inputSpace()`` and call ``supplied(_:)``.
        case needInput
        /// The last member ended cleanly.
        case end
    }

    private let state: UnsafeMutablePointer<inflate_state>
    private let input: UnsafeMutableRawBufferPointer
    private let output: UnsafeMutableRawBufferPointer
    private let name: String
    private var inputEnded = false
    private var memberEnded = false
    private var finished = false

    /// True when `bytes` start with the gzip magic and the deflate method (1f 8b 08).
    package static func isGzip(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 3 && bytes[0] == 0x1f && bytes[1] == 0x8b && bytes[2] == 0x08
    }

    /// - Parameters:
    ///   - input: the buffer the caller reads compressed bytes into; its first `pending` bytes are already read.
    ///   - name: the archive's name, for error messages.
    package init(input: UnsafeMutableRawBufferPointer, pending: Int, name: String) {
        self.input = input
        self.name = name
        output = .allocate(byteCount: 256 << 10, alignment: 64)
        state = .allocate(capacity: 1)
        isal_inflate_init(state)
        state.pointee.crc_flag = UInt32(ISAL_GZIP)
        state.pointee.next_in = input.baseAddress!.assumingMemoryBound(to: UInt8.self)
        state.pointee.avail_in = UInt32(pending)
    }

    deinit {
        state.deallocate()
        output.deallocate()
    }

    /// Compressed bytes read into the input buffer but not yet consumed.
    package var unconsumed: Int { Int(state.pointee.avail_in) }

    /// Moves the unconsumed input to the buffer's front and returns the free space after it.
    package func inputSpace() -> UnsafeMutableRawBufferPointer {
        let left = unconsumed
        if left > 0, let from = state.pointee.next_in { memmove(input.baseAddress!, from, left) }
        state.pointee.next_in = input.baseAddress!.assumingMemoryBound(to: UInt8.self)
        return UnsafeMutableRawBufferPointer(rebasing: input[left...])
    }

    /// `count` bytes were read into ``inputSpace()``; 0 means the source ended.
    package func supplied(_ count: Int) {
        if count == 0 { inputEnded = true }
        state.pointee.avail_in += UInt32(count)
    }

    /// Inflates the next block, asks for input, or reports the end.
    package func step() throws(TarixError) -> Step {
        while true {
            if finished { return .end }
            if memberEnded {
                let left = unconsumed
                if left < 3 && !inputEnded { return .needInput }
                let next = UnsafeRawBufferPointer(start: state.pointee.next_in, count: min(left, 3))
                if left < 3 && left > 0 && next.elementsEqual([0x1f, 0x8b].prefix(left)) {
                    throw .corruptArchive(name, "gzip stream truncated in a member's header")
                }
                guard Self.isGzip(next) else {
                    finished = true  // trailing bytes that start no member: ignored
                    return .end
                }
                let start = state.pointee.next_in
                isal_inflate_reset(state)
                state.pointee.crc_flag = UInt32(ISAL_GZIP)
                state.pointee.next_in = start
                state.pointee.avail_in = UInt32(left)
                memberEnded = false
            }
            let before = unconsumed
            state.pointee.next_out = output.baseAddress!.assumingMemoryBound(to: UInt8.self)
            state.pointee.avail_out = UInt32(output.count)
            let status = isal_inflate(state)
            if status < 0 { throw damage(status) }
            let produced = output.count - Int(state.pointee.avail_out)
            if state.pointee.block_state == ISAL_BLOCK_FINISH { memberEnded = true }
            if produced > 0 { return .output(UnsafeRawBufferPointer(rebasing: output[..<produced])) }
            if memberEnded { continue }
            if unconsumed == 0 {
                if inputEnded { throw .corruptArchive(name, "gzip stream truncated") }
                return .needInput
            }
            if unconsumed == before {
                throw .corruptArchive(name, "gzip stream makes no progress (igzip status \(status))")
            }
        }
    }

    private func damage(_ status: Int32) -> TarixError {
        let what =
            switch status {
            case ISAL_INCORRECT_CHECKSUM: "CRC-32 or length mismatch"
            case ISAL_INVALID_WRAPPER: "invalid gzip header"
            case ISAL_UNSUPPORTED_METHOD: "unsupported compression method"
            case ISAL_INVALID_BLOCK, ISAL_INVALID_SYMBOL, ISAL_INVALID_LOOKBACK: "invalid deflate data"
            default: "igzip error \(status)"
            }
        return .corruptArchive(name, "corrupt gzip data (\(what))")
    }
}
