import CZlib
import DocSyncSupport
import Foundation

/// One pass over a gzip'd tar read through a `ByteSource` (a file, or an archive still downloading), inflated on
/// worker threads (`ParallelInflater`) while this thread reads the file, hands its bytes to the observer and walks the
/// tar. The inflater restarts *cold* at every full flush point (the `00 00 FF FF` that ends a full flush's empty
/// stored block, proven by the inflater stopping exactly there between blocks); a restart that decodes on proves the
/// point a full flush (no back-reference crosses it), so every record located at such a point reads alone exactly as
/// Zeal reads it: raw inflate from the offset. The gzip trailer's CRC-32 and length are checked against everything
/// inflated.
///
/// Used to detect an archive already flushed at every record (`expect` answers `.first`) and to verify a
/// publisher's index (`expect` answers `.at(offset)` for indexed records). Memory: the inflater's jobs in flight
/// (`ParallelInflater`), one header.
struct ArchiveWalk {
    /// What to look for where a record starts.
    enum Expectation: Equatable {
        /// Nothing: decode on (a record the index does not locate).
        case none
        /// The first full flush point at this output position.
        case first
        /// A full flush point exactly at this compressed offset (`subject`: the index row asking, for errors).
        case at(Int64, subject: String)
    }

    /// The archive, read from offset 0 (a growing download's reads wait for its bytes).
    let source: any ByteSource
    let name: String
    let limits: TarixLimits
    /// Sees the file's bytes, the records and their data as the walk goes (nil: nobody else reads along).
    var observer: TarixWalkObserver? = nil
    fileprivate static let chunk = 64 << 10

    /// `expect(block)`: asked at every record boundary; `onRecord(record, flushOffset)`: every record, with the
    /// offset of the full flush point the record starts at, when `expect` asked for one there.
    func run(
        expect: (Int64) throws(TarixError) -> Expectation,
        onRecord: (TarRecord, Int64?) throws(TarixError) -> Void
    ) throws(TarixError) -> (tarBytes: Int64, archiveBytes: Int64, records: Int) {
        var reader = Reader(source: source, name: name, onRead: observer?.read)
        _ = try reader.gzipHeader()
        let inflater = try ParallelInflater(
            name: name, workers: limits.inflateWorkers, jobBytes: limits.inflateJobBytes,
            outputBytes: max(limits.inflateJobBytes * 8, 4096))
        var scanner = TarScanner(limits: limits)
        var produced: Int64 = 0
        var handled: Int64 = -1
        var restart: (block: Int64, offset: Int64)?
        // The full flush points proven at output position `pointsAt`.
        var points: [Int64] = []
        var pointsAt: Int64 = -1
        // The observer's view of the record last reported: data bytes still to hand over, then its padding.
        var dataLeft: Int64 = 0
        let observer = observer
        // The record whose bytes are being inflated (a damaged stream is blamed on it).
        var current: TarRecord?
        let inflated: ParallelInflater.Result
        do {
            inflated = try inflater.run(
                &reader,
                output: { bytes throws(TarixError) in
                    var rest = bytes
                    while !rest.isEmpty {
                        if scanner.atRecordStart, handled != produced {
                            handled = produced
                            let here = pointsAt == produced ? points : []
                            switch try expect(produced / 512) {
                            case .none: break
                            case .first: if let first = here.first { restart = (produced / 512, first) }
                            case .at(let offset, let subject):
                                guard here.contains(offset) else {
                                    throw .badIndex(
                                        subject,
                                        "offset \(offset) is not a flush point before block \(produced / 512) "
                                            + "(raw inflate cannot start there)")
                                }
                                restart = (produced / 512, offset)
                            }
                        }
                        let length = min(rest.count, scanner.safeLength)
                        guard length > 0 else { throw .corruptArchive(name, "the tar walk stalled at \(produced)") }
                        var part = UnsafeRawBufferPointer(rebasing: rest[0..<length])
                        rest = UnsafeRawBufferPointer(rebasing: rest[length...])
                        produced += Int64(length)
                        while !part.isEmpty {
                            let (consumed, record) = try scanner.consume(part)
                            if dataLeft > 0, let observer {
                                // A consume that starts in a record's data consumes only data and padding.
                                let n = Int(min(dataLeft, Int64(consumed)))
                                dataLeft -= Int64(n)
                                try observer.data(UnsafeRawBufferPointer(rebasing: part[0..<n]))
                            }
                            part = UnsafeRawBufferPointer(rebasing: part[consumed...])
                            if let record {
                                current = record
                                if let observer {
                                    try observer.record(record)
                                    dataLeft = record.size
                                }
                                let offset = restart?.block == record.firstBlock ? restart?.offset : nil
                                try onRecord(record, offset)
                            }
                        }
                    }
                },
                coldPoint: { offset throws(TarixError) in
                    if pointsAt != produced {
                        points.removeAll(keepingCapacity: true)
                        pointsAt = produced
                    }
                    points.append(offset)
                })
        } catch where error.kind == "corrupt_archive"
            && (error.subject == name || error.subject.hasPrefix("tar block"))
        {
            // A damaged stream is blamed on the record it broke: the one being inflated, or the one before a header
            // that does not parse (its data inflated to the wrong bytes).
            guard let current else { throw error }
            let inside = produced < (current.firstBlock + current.blockCount) * 512
            throw .corruptArchive(
                error.subject, "\(error.message) (\(inside ? "inside" : "after") the record '\(current.displayPath)')")
        }
        try scanner.finish()
        // The gzip trailer: CRC-32 and length of everything inflated, then nothing.
        guard inflated.tail.count >= 8 else {
            throw .corruptArchive(name, "truncated: the gzip trailer is missing")
        }
        let (storedCRC, storedSize) = inflated.tail.withUnsafeBytes {
            GzipHeader.trailer(UnsafeRawBufferPointer(rebasing: $0[0..<8]))
        }
        guard storedCRC == UInt32(truncatingIfNeeded: inflated.crc),
            storedSize == UInt32(truncatingIfNeeded: inflated.size)
        else {
            throw .corruptArchive(name, "gzip trailer does not match the data (CRC-32 or length)")
        }
        guard inflated.tail.count == 8, try reader.atEnd() else {
            throw .notFlushed(name, "more than one gzip member (a tarix archive is a single gzip stream)")
        }
        return (produced, reader.position, scanner.records)
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
