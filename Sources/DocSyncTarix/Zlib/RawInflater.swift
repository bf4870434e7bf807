import CIsal

/// ISA-L's inflate (igzip) on raw deflate data (`crc_flag` `ISAL_DEFLATE`): 2–3× zlib's speed, used for reading one
/// tarix record from its flush point. Like ``Inflater``, buffers are passed per call and the decoder keeps its own
/// history between calls (its 32 KiB `tmp_out_buffer`), so the output may move from one buffer to the next. What
/// stays with zlib: the whole-archive inflates (``ParallelInflater`` needs `inflateCopy` and `Z_BLOCK` boundaries,
/// which ISA-L has not) and ``GzipDecoder``. Not thread-safe: one per reader (``RecordReader``).
final class RawInflater {
    private let state: UnsafeMutablePointer<inflate_state>

    /// How one call ended.
    enum Outcome: Equatable {
        /// The output is full or the input used up: call again with more of either.
        case more
        /// The deflate stream's last block ended (no more output will come).
        case end
        /// Invalid deflate data: ISA-L's code (`ISAL_INVALID_BLOCK`, `_SYMBOL`, `_LOOKBACK`).
        case invalid(Int32)
    }

    /// One call's outcome and the bytes consumed and produced.
    struct Step {
        let outcome: Outcome
        let consumed: Int
        let produced: Int
    }

    init() {
        state = .allocate(capacity: 1)
        isal_inflate_init(state)
        state.pointee.crc_flag = UInt32(ISAL_DEFLATE)
    }

    deinit { state.deallocate() }

    /// Forgets the history and any partial block: the next byte fed must start a deflate block.
    func reset() {
        isal_inflate_reset(state)
        state.pointee.crc_flag = UInt32(ISAL_DEFLATE)
    }

    /// A readable name for an ``Outcome/invalid(_:)`` code.
    static func describe(_ code: Int32) -> String {
        switch code {
        case ISAL_INVALID_BLOCK: "invalid deflate block"
        case ISAL_INVALID_SYMBOL: "invalid deflate symbol"
        case ISAL_INVALID_LOOKBACK: "invalid back-reference distance"
        default: "ISA-L inflate error \(code)"
        }
    }

    /// Inflates from `input` into `output` until either is used up or the stream ends.
    func inflate(_ input: UnsafeRawBufferPointer, _ output: UnsafeMutableRawBufferPointer) -> Step {
        guard output.count > 0, let outBase = output.baseAddress else {
            let ended = state.pointee.block_state == ISAL_BLOCK_FINISH
            return Step(outcome: ended ? .end : .more, consumed: 0, produced: 0)
        }
        var spare: UInt8 = 0
        return withUnsafeMutablePointer(to: &spare) { spare in
            state.pointee.next_in =
                UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: UInt8.self)) ?? spare
            state.pointee.avail_in = UInt32(input.count)
            state.pointee.next_out = outBase.assumingMemoryBound(to: UInt8.self)
            state.pointee.avail_out = UInt32(output.count)
            let rc = isal_inflate(state)
            let step = Step(
                outcome: rc < 0 ? .invalid(rc) : state.pointee.block_state == ISAL_BLOCK_FINISH ? .end : .more,
                consumed: input.count - Int(state.pointee.avail_in),
                produced: output.count - Int(state.pointee.avail_out))
            state.pointee.next_in = nil
            state.pointee.next_out = nil
            return step
        }
    }
}
