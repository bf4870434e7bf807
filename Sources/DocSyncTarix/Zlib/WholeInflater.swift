import CDeflate
import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

/// libdeflate's whole-buffer raw inflate: the whole compressed input in, the whole output out, in one call and
/// without a stream's state between calls — about twice zlib's speed on short records, used for a tarix record
/// whose compressed end is known (the next record's flush point, from ``TarixLocationMap``). The caller ends the
/// input with ``finalBlock`` (the record's data ends with the flush's empty stored block, which is not final) and
/// accepts the result only when the whole input decodes and gives at least the record's blocks (a record without a
/// location, a directory's header, may follow it before that end). Not thread-safe: one per reader
/// (``RecordReader``).
final class WholeInflater {
    private let decompressor: OpaquePointer

    /// An empty final block (fixed Huffman codes, end of block at once), appended after a record's data so that
    /// it is a complete deflate stream.
    static let finalBlock: [UInt8] = [0x03, 0x00]

    init?() {
        guard let made = libdeflate_alloc_decompressor() else { return nil }
        decompressor = made
    }

    deinit { libdeflate_free_decompressor(decompressor) }

    /// Inflates the complete raw deflate stream `input` into `output`: the bytes produced, or nil when the data is
    /// not valid deflate, does not end where `input` ends, or does not fit `output`.
    func inflate(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Int? {
        guard let inBase = input.baseAddress, let outBase = output.baseAddress else { return nil }
        var consumed = 0
        var produced = 0
        let result = libdeflate_deflate_decompress_ex(
            decompressor, inBase, input.count, outBase, output.count, &consumed, &produced)
        guard result == LIBDEFLATE_SUCCESS, consumed == input.count else { return nil }
        return produced
    }
}

extension RecordReader {
    /// How ``inflateWhole(from:_:end:inline:)`` ended.
    enum Whole {
        /// The record's blocks (and any records without a location up to its end), in the reader's buffer.
        case inflated(UnsafeRawBufferPointer)
        /// Not possible or not whole: stream the record instead (whose errors say what is wrong).
        case notWhole
        /// A read without waiting found compressed bytes not in the page cache.
        case wouldBlock
    }

    /// The record at `location` of `archive` inflated whole by libdeflate into this reader's buffer: its compressed
    /// bytes up to `end` read in one `pread` (`RWF_NOWAIT` when `inline`), ended with an empty final block, and
    /// inflated in one call. ``Whole/notWhole`` when that cannot be done or gives less than the record's blocks (the
    /// end unknown or too far, more than a reader's buffer before it, damaged data).
    func inflateWhole(from archive: Int32, _ location: TarixLocation, end: Int64?, inline: Bool) -> Whole {
        let tail = WholeInflater.finalBlock
        guard let end, end > location.offset, end - location.offset <= input.count - tail.count,
            location.length < RecordInflate.isalFromBlocks, let (inflater, output) = whole()
        else { return .notWhole }
        let count = Int(end - location.offset)
        let target = UnsafeMutableRawBufferPointer(rebasing: input[0..<count])
        let n =
            inline
            ? ContainedFile.readCached(archive, into: target, at: Int(location.offset))
            : pread(archive, target.baseAddress!, count, off_t(location.offset))
        if n < 0, inline, errno == EAGAIN { return .wouldBlock }
        guard n == count else { return .notWhole }  // an error or a short read: streamed (and reported) instead
        for (k, byte) in tail.enumerated() { input[count + k] = byte }
        let blocks = Int(location.length) * 512
        // Records without a location (a directory's header) may follow it before `end`: the stream must still
        // decode whole, and the record is its first blocks.
        let data = UnsafeRawBufferPointer(rebasing: input[0..<(count + tail.count)])
        guard let produced = inflater.inflate(data, into: output), produced >= blocks
        else { return .notWhole }
        return .inflated(UnsafeRawBufferPointer(rebasing: output[0..<blocks]))
    }
}
