import CZlib

/// Where inflated bytes go while `InflateJob.inflate` runs: a job's own buffer on a worker, or the walk itself.
protocol InflateOutput {
    /// Room for the next bytes; empty: stop here (the stream is left open at that point).
    mutating func space() -> UnsafeMutableRawBufferPointer
    /// The last call wrote `count` bytes at the start of the room `space` gave.
    mutating func wrote(_ count: Int) throws(TarixError)
    /// The inflater restarted cold at file offset `offset`, a full flush point: the next bytes start there.
    mutating func coldPoint(at offset: Int64) throws(TarixError)
}

/// How an inflate over a job's compressed bytes ended.
enum InflateOutcome {
    /// Every byte consumed, stopped exactly between two blocks, byte-aligned, at the job's end (a flush point).
    case closed
    /// Stopped mid-stream at this input offset (the job's end is no flush point, or the output room ran out): the
    /// same inflater goes on from there.
    case open(at: Int)
    /// The deflate stream ended; what follows this input offset is the gzip trailer.
    case streamEnd(at: Int)
    case failed(TarixError)
}

/// A piece of a gzip'd tar's compressed bytes for `ParallelInflater`: from a full flush point (or the stream's start)
/// to the next flush point past its target size, with the offsets where a full flush's empty stored block
/// (`00 00 FF FF`) ends inside it — the candidates, each proven only when the inflater stops there between blocks.
///
/// `@unchecked Sendable`: a job belongs to the walk while it is filled and read back, and to one worker in between;
/// the hand-overs go through `ParallelInflater`'s lock.
final class InflateJob: @unchecked Sendable {
    let input: UnsafeMutableRawBufferPointer
    /// Input bytes filled.
    var count = 0
    /// The file offset of `input[0]`.
    var base: Int64 = 0
    /// Input offsets (ascending, in `1...count`) just past a `00 00 FF FF` marker.
    var candidates: [Int] = []
    /// True when `input[0]` is no flush point (the job before was cut mid-stream): only the walk can go on there.
    var continuation = false
    /// True once handed to a worker.
    var submitted = false
    /// The 5 bytes before `input[0]` when the job starts at a marker (for `flushPoints`).
    var lead: [UInt8] = []

    // Written by the worker.
    let output: UnsafeMutableRawBufferPointer
    /// Output bytes written.
    var produced = 0
    /// Cold restarts: the output offset and the file offset of each.
    var coldPoints: [(output: Int, offset: Int64)] = []
    /// The file offset of the flush point the inflater last restarted at (for messages).
    var segment: Int64 = 0
    /// CRC-32 of `output[0..<produced]`.
    var crc: UInt = 0
    var outcome = InflateOutcome.closed
    /// The worker's inflater, left where the outcome says (an `open` job's state is copied by the walk).
    let inflater: Inflater

    init(inputBytes: Int, outputBytes: Int) throws(TarixError) {
        inflater = try Inflater(windowBits: -MAX_WBITS)
        input = .allocate(byteCount: inputBytes, alignment: 16)
        output = .allocate(byteCount: outputBytes, alignment: 16)
    }

    deinit {
        input.deallocate()
        output.deallocate()
    }

    /// Empties the job for reuse, starting at file offset `base`.
    func reset(at base: Int64) {
        count = 0
        self.base = base
        candidates.removeAll(keepingCapacity: true)
        continuation = false
        submitted = false
        lead.removeAll(keepingCapacity: true)
        produced = 0
        coldPoints.removeAll(keepingCapacity: true)
        crc = 0
        outcome = .closed
    }

    var inputBytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: input[0..<count]) }

    /// The worker's part: inflates the job cold from its start (a flush point), into `output`.
    func inflateCold(name: String) {
        inflater.reset()
        segment = base
        var sink = BufferOutput(job: self)
        do throws(TarixError) {
            for point in flushPoints(at: 0) { sink.coldPoint(at: point) }
            outcome = try Self.inflate(
                inputBytes, base: base, from: 0, candidates: candidates, inflater: inflater, segment: &segment,
                name: name, into: &sink)
        } catch {
            outcome = .failed(error)
        }
        let bytes = output.baseAddress!.assumingMemoryBound(to: UInt8.self)
        crc = produced == 0 ? 0 : CZlib.crc32(0, bytes, UInt32(produced))
    }

    /// The offsets a cold inflate can start at to read what follows the marker ending at input offset `end`: `end`
    /// itself, and 5 bytes earlier when the byte there begins the empty stored block (`BFINAL` 0, `BTYPE` 00: the
    /// block before ended byte-aligned, where a sequential inflater finds its first boundary; zlib's writers and
    /// older indexes may name that point).
    func flushPoints(at end: Int) -> [Int64] {
        let offset = base + Int64(end)
        let header: UInt8?
        if end >= 5 {
            header = input[end - 5]
        } else if end == 0, lead.count == 5 {
            header = lead[0]
        } else {
            header = nil
        }
        guard let header, header & 7 == 0 else { return [offset] }
        return [offset, offset - 5]
    }

    /// The output side of a worker: the job's own buffer.
    private struct BufferOutput: InflateOutput {
        let job: InflateJob
        func space() -> UnsafeMutableRawBufferPointer {
            UnsafeMutableRawBufferPointer(rebasing: job.output[job.produced...])
        }
        func wrote(_ count: Int) { job.produced += count }
        func coldPoint(at offset: Int64) { job.coldPoints.append((job.produced, offset)) }
    }

    /// Inflates `input[from...]` (file offset `base + from` onwards) with `inflater`, which stands at `from`, into
    /// `output`. At every candidate where the inflater stops exactly between blocks with no bits left over, it
    /// restarts cold (`inflateReset`) and reports the flush point; a candidate inside a block (the marker's bytes were
    /// data) is passed by. A back-reference across a restart means that point was no full flush: `notFlushed`.
    /// `segment`: the file offset of the last restart.
    static func inflate<Output: InflateOutput>(
        _ input: UnsafeRawBufferPointer, base: Int64, from: Int, candidates: [Int], inflater: Inflater,
        segment: inout Int64, name: String, into output: inout Output
    ) throws(TarixError) -> InflateOutcome {
        var position = from
        // A candidate at `from` itself is still to judge (an inflater left there with output pending).
        var next = candidates.firstIndex { $0 >= from && $0 > 0 } ?? candidates.endIndex
        while true {
            let limit = next < candidates.endIndex ? candidates[next] : input.count
            if position == limit {
                let atCandidate = next < candidates.endIndex
                if inflater.atAlignedBlockBoundary {
                    guard atCandidate, limit < input.count else { return atCandidate ? .closed : .open(at: position) }
                    inflater.reset()
                    segment = base + Int64(limit)
                    try output.coldPoint(at: segment)
                    if limit >= 5, input[limit - 5] & 7 == 0 { try output.coldPoint(at: segment - 5) }
                    next += 1
                    continue
                }
                if !atCandidate { return .open(at: position) }
                // Inside a block: a marker made of data, unless output still waits to be written.
            }
            let room = output.space()
            if room.isEmpty { return .open(at: position) }
            let step = inflater.inflate(
                UnsafeRawBufferPointer(rebasing: input[position..<limit]), room, flush: Z_BLOCK)
            position += step.consumed
            if step.produced > 0 { try output.wrote(step.produced) }
            switch step.code {
            case Z_STREAM_END: return .streamEnd(at: position)
            case Z_OK, Z_BUF_ERROR:
                if position == limit, step.produced < room.count, !inflater.atAlignedBlockBoundary,
                    next < candidates.endIndex
                {
                    next += 1  // a candidate inside a block: pass it by
                } else if step.consumed == 0, step.produced == 0, position < limit {
                    throw .corruptArchive(name, "inflate stalled at offset \(base + Int64(position))")
                }
            default:
                if inflater.message.contains("too far back") {
                    throw .notFlushed(
                        "offset \(segment)", "data after the flush point at offset \(segment) refers back across it")
                }
                throw .corruptArchive(
                    name, "corrupt deflate data near offset \(base + Int64(position)): \(inflater.message)")
            }
        }
    }
}
