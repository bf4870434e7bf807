import CDeflate

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
