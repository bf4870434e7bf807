import CZlib

/// One piece of a `ParallelDeflater`'s input: a run of whole records (or a piece of one record larger than a job),
/// compressed by one worker's raw deflate stream with a full flush before every record that starts inside it.
///
/// `@unchecked Sendable`: a job belongs to the producer while it is filled and after it is done, and to its worker
/// in between; the hand-overs go through `ParallelDeflater`'s lock (`queues`, `done`).
final class DeflateJob: @unchecked Sendable {
    let input: UnsafeMutableRawBufferPointer
    /// Input bytes filled.
    var count = 0
    /// The uncompressed position of `input[0]`.
    var position: Int64 = 0
    /// Input offsets where a record starts (a full flush goes before each, unless it is 0: the job then follows a
    /// full flush already).
    var starts: [Int] = []
    /// True when the next byte after the job starts a record: the job ends with a full flush. False: the record
    /// goes on in the next job, which the same worker compresses.
    var endsAtBoundary = false
    /// The worker compressing it.
    var worker = 0

    // Written by the worker.
    let output: DeflateOutput
    /// The output offset of each of `starts`.
    var flushOffsets: [Int] = []
    /// CRC-32 of the input.
    var crc: UInt = 0
    var failure: TarixError?

    init(capacity: Int) {
        input = .allocate(byteCount: capacity, alignment: 16)
        output = DeflateOutput(capacity: capacity / 2)
    }

    deinit { input.deallocate() }

    var isFull: Bool { count == input.count }

    /// Empties the job for reuse, starting at `position`.
    func reset(at position: Int64) {
        count = 0
        self.position = position
        starts.removeAll(keepingCapacity: true)
        flushOffsets.removeAll(keepingCapacity: true)
        output.count = 0
        endsAtBoundary = false
        failure = nil
    }

    /// Appends as much of `bytes` as fits; returns how much.
    func append(_ bytes: UnsafeRawBufferPointer) -> Int {
        let n = min(bytes.count, input.count - count)
        if n > 0 { (input.baseAddress! + count).copyMemory(from: bytes.baseAddress!, byteCount: n) }
        count += n
        return n
    }

    /// The worker's part: compresses the input with `deflater`, a full flush before every record start and at the
    /// end when the job ends at a record boundary.
    func compress(with deflater: Deflater) {
        do throws(TarixError) {
            var from = 0
            for start in starts {
                if start > from {
                    try deflater.compress(slice(from, start), flush: Z_FULL_FLUSH, into: output)
                    from = start
                }
                flushOffsets.append(output.count)
            }
            try deflater.compress(slice(from, count), flush: endsAtBoundary ? Z_FULL_FLUSH : Z_NO_FLUSH, into: output)
            crc = count == 0 ? 0 : CZlib.crc32(0, input.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt32(count))
        } catch {
            failure = error
        }
    }

    private func slice(_ from: Int, _ to: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: input[from..<to])
    }
}
