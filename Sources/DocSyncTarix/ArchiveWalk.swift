import CZlib
import DocSyncSupport
import Foundation

/// One pass over a gzip'd tar read through a `ByteSource` (a file, or an archive still downloading), inflating raw
/// and restarting the inflater *cold* at the flush point of each record the caller asks about. A cold restart that
/// decodes proves the point is a full flush (no back-reference crosses it), so every record checked this way reads
/// alone exactly as Zeal reads it: raw inflate from the offset. The gzip trailer's CRC-32 and length are checked
/// against everything inflated.
///
/// Used to detect an archive already flushed at every record (`expect` answers `.first`) and to verify a
/// publisher's index (`expect` answers `.at(offset)` for indexed records). Memory: two 64 KiB buffers, one header.
struct ArchiveWalk {
    /// What to look for where a record starts.
    enum Expectation: Equatable {
        /// Nothing: decode on (a record the index does not locate).
        case none
        /// The first byte-aligned block boundary at this output position.
        case first
        /// A block boundary exactly at this compressed offset (`subject`: the index row asking, for errors).
        case at(Int64, subject: String)
    }

    /// The archive, read from offset 0 (a growing download's reads wait for its bytes).
    let source: any ByteSource
    let name: String
    let limits: TarixLimits
    /// Sees the file's bytes, the records and their data as the walk goes (nil: nobody else reads along).
    var observer: TarixWalkObserver? = nil

    private static let chunk = 64 << 10

    /// `expect(block)`: asked at every record boundary; `onRecord(record, flushOffset)`: every record, with the
    /// offset the inflater restarted at when it did so at the record's first block.
    func run(
        expect: (Int64) throws(TarixError) -> Expectation,
        onRecord: (TarRecord, Int64?) throws(TarixError) -> Void
    ) throws(TarixError) -> (tarBytes: Int64, archiveBytes: Int64, records: Int) {
        var reader = Reader(source: source, name: name, onRead: observer?.read)
        _ = try reader.gzipHeader()
        let inflater = try Inflater(windowBits: -MAX_WBITS)
        var fresh = true
        var output = [UInt8](repeating: 0, count: Self.chunk)
        var scanner = TarScanner(limits: limits)
        var crc = crc32(0, nil, 0)
        var produced: Int64 = 0
        var handled: Int64 = -1
        var restart: (block: Int64, offset: Int64)?
        var ended = false
        // The observer's view of the record last reported: data bytes still to hand over, then its padding.
        var dataLeft: Int64 = 0

        while !ended {
            if scanner.atRecordStart, handled != produced {
                handled = produced
                let expectation = try expect(produced / 512)
                if expectation != .none {
                    if let offset = try seekFlushPoint(expectation, &reader, inflater, &fresh, &ended) {
                        inflater.reset()
                        fresh = true
                        restart = (produced / 512, offset)
                    } else if case .at(let offset, let subject) = expectation {
                        throw .badIndex(
                            subject,
                            "offset \(offset) is not a flush point before block \(produced / 512) "
                                + "(raw inflate cannot start there)")
                    }
                    if ended { break }
                }
            }
            let exhausted = reader.isEmpty ? try !reader.fill() : false
            let limit = min(output.count, scanner.safeLength)
            let step = output.withUnsafeMutableBytes { out in
                reader.withInput { input in
                    // Z_BLOCK: with its output full, inflate would otherwise decode on through block boundaries and
                    // swallow the flush point the next record starts at.
                    inflater.inflate(input, UnsafeMutableRawBufferPointer(rebasing: out[0..<limit]), flush: Z_BLOCK)
                }
            }
            reader.advance(step.consumed)
            if step.consumed > 0 || step.produced > 0 { fresh = false }
            if step.produced > 0 {
                produced += Int64(step.produced)
                try typed {
                    try output.withUnsafeBytes { out in
                        var rest = UnsafeRawBufferPointer(rebasing: out[0..<step.produced])
                        crc = crc32(crc, rest.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt32(rest.count))
                        while !rest.isEmpty {
                            let (consumed, record) = try scanner.consume(rest)
                            if dataLeft > 0, let observer {
                                // A consume that starts in a record's data consumes only data and padding.
                                let n = Int(min(dataLeft, Int64(consumed)))
                                dataLeft -= Int64(n)
                                try observer.data(UnsafeRawBufferPointer(rebasing: rest[0..<n]))
                            }
                            rest = UnsafeRawBufferPointer(rebasing: rest[consumed...])
                            if let record {
                                if let observer {
                                    try observer.record(record)
                                    dataLeft = record.size
                                }
                                let offset = restart?.block == record.firstBlock ? restart?.offset : nil
                                try onRecord(record, offset)
                            }
                        }
                    }
                }
            }
            switch step.code {
            case Z_OK: continue
            case Z_STREAM_END: ended = true
            case Z_BUF_ERROR where step.consumed == 0 && step.produced == 0:
                throw .corruptArchive(
                    name, exhausted ? "truncated: the gzip stream ends early" : "inflate stalled at \(reader.position)")
            case Z_BUF_ERROR: continue
            default:
                if restart != nil, inflater.message.contains("too far back") {
                    throw .notFlushed(
                        "offset \(restart!.offset)",
                        "data after the flush point at offset \(restart!.offset) refers back across it")
                }
                throw .corruptArchive(name, "corrupt deflate data near offset \(reader.position): \(inflater.message)")
            }
        }
        try scanner.finish()
        // The gzip trailer: CRC-32 and length of everything inflated, then nothing.
        let trailer = try reader.take(8)
        let (storedCRC, storedSize) = trailer.withUnsafeBytes { GzipHeader.trailer($0) }
        guard storedCRC == UInt32(truncatingIfNeeded: crc), storedSize == UInt32(truncatingIfNeeded: produced) else {
            throw .corruptArchive(name, "gzip trailer does not match the data (CRC-32 or length)")
        }
        guard try reader.atEnd() else {
            throw .notFlushed(name, "more than one gzip member (a tarix archive is a single gzip stream)")
        }
        return (produced, reader.position, scanner.records)
    }

    /// Steps through block headers without producing output, looking for a byte-aligned block boundary as
    /// `expectation` asks. Nil when the inflater needs output (a data block starts) before finding one.
    private func seekFlushPoint(
        _ expectation: Expectation, _ reader: inout Reader, _ inflater: Inflater, _ fresh: inout Bool,
        _ ended: inout Bool
    ) throws(TarixError) -> Int64? {
        while true {
            let position = reader.position
            if fresh || inflater.atAlignedBlockBoundary {
                switch expectation {
                case .none, .first: return position
                case .at(let offset, _):
                    if position == offset { return offset }
                    if position > offset { return nil }
                }
            } else if case .at(let offset, _) = expectation, position > offset {
                return nil
            }
            if reader.isEmpty {
                guard try reader.fill() else { throw .corruptArchive(name, "truncated: the gzip stream ends early") }
            }
            let before = inflater.dataType
            let step = reader.withInput { input in
                inflater.inflate(input, UnsafeMutableRawBufferPointer(start: nil, count: 0), flush: Z_BLOCK)
            }
            reader.advance(step.consumed)
            if step.consumed > 0 { fresh = false }
            switch step.code {
            case Z_OK: continue
            case Z_STREAM_END:
                ended = true
                return nil
            case Z_BUF_ERROR:
                // zlib reports Z_BUF_ERROR when no byte moved even if the state advanced (an end-of-block code
                // already in its bit buffer): stuck only when nothing changed while input was there.
                if step.consumed == 0 && inflater.dataType == before && !reader.isEmpty { return nil }
            default:
                throw .corruptArchive(name, "corrupt deflate data near offset \(reader.position): \(inflater.message)")
            }
        }
    }
}

extension ArchiveWalk {
    /// The compressed side: a window over the source read at increasing offsets, and its absolute position.
    struct Reader {
        let source: any ByteSource
        let name: String
        /// Sees every byte read from the file, once, in order.
        let onRead: ((UnsafeRawBufferPointer) throws(TarixError) -> Void)?
        private var buffer = [UInt8](repeating: 0, count: ArchiveWalk.chunk)
        private var start = 0
        private var end = 0
        private var fileOffset: Int64 = 0

        init(
            source: any ByteSource, name: String, onRead: ((UnsafeRawBufferPointer) throws(TarixError) -> Void)? = nil
        ) {
            self.source = source
            self.name = name
            self.onRead = onRead
        }

        /// Offset in the file of the next unconsumed byte.
        var position: Int64 { fileOffset - Int64(end - start) }
        var isEmpty: Bool { start == end }

        mutating func advance(_ n: Int) { start += n }

        func withInput<T>(_ body: (UnsafeRawBufferPointer) -> T) -> T {
            buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[start..<end])) }
        }

        /// Reads more after the unconsumed bytes (moved to the front); false at the end of the file.
        @discardableResult
        mutating func fill() throws(TarixError) -> Bool {
            if start > 0 {
                let kept = end - start
                buffer.withUnsafeMutableBytes {
                    $0.baseAddress!.copyMemory(from: $0.baseAddress! + start, byteCount: kept)
                }
                start = 0
                end = kept
            }
            guard end < buffer.count else { return true }
            let capacity = buffer.count - end
            let offset = fileOffset
            let here = end
            let read = buffer.withUnsafeMutableBytes { bytes -> Result<Int, SystemError> in
                let into = UnsafeMutableRawBufferPointer(rebasing: bytes[here..<(here + capacity)])
                return Result { () throws(SystemError) in try source.readAt(offset: offset, into: into) }
            }
            let n: Int
            switch read {
            case .success(let count): n = count
            case .failure(let error): throw .io(name, "read failed: \(error)")
            }
            if n > 0, let onRead {
                try typed {
                    try buffer.withUnsafeBytes { bytes in
                        try onRead(UnsafeRawBufferPointer(rebasing: bytes[here..<(here + n)]))
                    }
                }
            }
            end += n
            fileOffset += Int64(n)
            return n > 0
        }

        /// Parses the gzip member header and consumes it; returns its length.
        mutating func gzipHeader() throws(TarixError) -> Int {
            while true {
                let parse = withInput { GzipHeader.parse($0) }
                switch parse {
                case .header(let length):
                    advance(length)
                    return length
                case .invalid(let why): throw .corruptArchive(name, why)
                case .needMore:
                    guard try fill() else { throw .corruptArchive(name, "truncated: no complete gzip header") }
                }
            }
        }

        /// The next `n` bytes (the gzip trailer).
        mutating func take(_ n: Int) throws(TarixError) -> [UInt8] {
            while end - start < n {
                guard try fill() else { throw .corruptArchive(name, "truncated: the gzip trailer is missing") }
            }
            defer { start += n }
            return Array(buffer[start..<(start + n)])
        }

        /// True when nothing follows.
        mutating func atEnd() throws(TarixError) -> Bool {
            if !isEmpty { return false }
            return try !fill()
        }
    }
}
