/// Follows a tar byte stream of any chunking and reports its records, in bounded memory: one header block and at
/// most one long name or pax header (`TarixLimits.maxHeaderBytes`) are held; file data is only counted.
///
/// `consume` stops at every record boundary (so a writer can flush before the next record's first byte) and right
/// after a record's header chain (to report it). At `atRecordStart` the next byte begins a new record.
struct TarScanner {
    private enum Phase {
        case header
        /// Data of a `L`, `K` or `x` header: `remaining` bytes still to come (the last block's rest is padding).
        case metadata(kind: UInt8, remaining: Int)
        case data(remaining: Int64)
        case ended
    }

    private let limits: TarixLimits
    private var phase = Phase.header
    private var block = [UInt8](repeating: 0, count: TarHeader.blockSize)
    private var fill = 0
    private var metadata: [UInt8] = []
    private var longName: [UInt8]?
    private var longLink: [UInt8]?
    private var pax = PaxHeader()
    private var recordStart: Int64 = 0
    private var entryCount = 0

    /// Bytes consumed so far (the uncompressed offset).
    private(set) var position: Int64 = 0
    /// The next byte starts a record (false inside a record and after the end-of-archive marker).
    private(set) var atRecordStart = true
    /// Records reported so far.
    private(set) var records = 0

    init(limits: TarixLimits) { self.limits = limits }

    /// True once the end-of-archive marker was read.
    var ended: Bool { if case .ended = phase { true } else { false } }

    /// How many bytes may be fed before the scanner can tell where the next record starts: the rest of the current
    /// block while in headers, the rest of the data (exactly up to the boundary) in a file's data.
    var safeLength: Int {
        switch phase {
        case .header, .metadata: TarHeader.blockSize - fill
        case .data(let remaining): Int(clamping: remaining)
        case .ended: Int.max
        }
    }

    /// Consumes a prefix of `chunk`; returns its length and the record whose header chain just completed, if any.
    mutating func consume(_ chunk: UnsafeRawBufferPointer) throws(TarixError) -> (consumed: Int, record: TarRecord?) {
        var at = 0
        while at < chunk.count {
            switch phase {
            case .ended:
                position += Int64(chunk.count - at)
                return (chunk.count, nil)
            case .data(let remaining):
                let n = Int(min(remaining, Int64(chunk.count - at)))
                at += n
                position += Int64(n)
                if Int64(n) == remaining {
                    phase = .header
                    atRecordStart = true
                    return (at, nil)
                }
                phase = .data(remaining: remaining - Int64(n))
            case .header, .metadata:
                if atRecordStart {
                    atRecordStart = false
                    recordStart = position
                }
                let n = min(TarHeader.blockSize - fill, chunk.count - at)
                block.withUnsafeMutableBytes { dst in
                    dst.baseAddress!.advanced(by: fill).copyMemory(
                        from: chunk.baseAddress!.advanced(by: at), byteCount: n)
                }
                fill += n
                at += n
                position += Int64(n)
                guard fill == TarHeader.blockSize else { continue }
                fill = 0
                if let record = try completeBlock() { return (at, record) }
                if ended || atRecordStart { return (at, nil) }
            }
        }
        return (at, nil)
    }

    /// Checks the stream ended where a tar may end: after the end-of-archive marker, or between records.
    func finish() throws(TarixError) {
        switch phase {
        case .ended: return
        case .header where fill == 0 && atRecordStart: return
        default:
            throw .corruptArchive("tar", "truncated: the stream ends inside the record at block \(recordStart / 512)")
        }
    }

    private mutating func completeBlock() throws(TarixError) -> TarRecord? {
        switch phase {
        case .metadata(let kind, let remaining):
            let take = min(remaining, TarHeader.blockSize)
            metadata += block[0..<take]
            if remaining > take {
                phase = .metadata(kind: kind, remaining: remaining - take)
                return nil
            }
            try finishMetadata(kind)
            phase = .header
            return nil
        case .header:
            return try header()
        case .data, .ended:
            return nil
        }
    }

    private mutating func header() throws(TarixError) -> TarRecord? {
        let blockIndex = (position - 512) / 512
        let isZero = block.withUnsafeBytes { TarHeader.isZero($0) }
        if isZero {
            guard recordStart == position - 512 else {
                throw .corruptArchive("tar", "end-of-archive marker inside the record at block \(recordStart / 512)")
            }
            phase = .ended
            return nil
        }
        let parsed = block.withUnsafeBytes { TarHeader.parse($0) }
        let header: TarHeader
        switch parsed {
        case .success(let value): header = value
        case .failure(let problem): throw .corruptArchive("tar block \(blockIndex)", problem.message)
        }
        switch header.typeflag {
        case UInt8(ascii: "L"), UInt8(ascii: "K"), UInt8(ascii: "x"):
            guard header.size <= Int64(limits.maxHeaderBytes) else {
                throw .tooLarge("tar block \(blockIndex)", "extended header of \(header.size) bytes")
            }
            let size = Int(header.size)
            metadata.removeAll(keepingCapacity: true)
            if size == 0 {
                try finishMetadata(header.typeflag)
            } else {
                phase = .metadata(kind: header.typeflag, remaining: size)
            }
            return nil
        default:
            return try entry(header)
        }
    }

    private mutating func finishMetadata(_ kind: UInt8) throws(TarixError) {
        switch kind {
        case UInt8(ascii: "L"): longName = Array(metadata.prefix { $0 != 0 })
        case UInt8(ascii: "K"): longLink = Array(metadata.prefix { $0 != 0 })
        default:
            guard let parsed = PaxHeader.parse(metadata, into: pax) else {
                throw .corruptArchive("tar block \(recordStart / 512)", "malformed pax extended header")
            }
            pax = parsed
        }
    }

    private mutating func entry(_ header: TarHeader) throws(TarixError) -> TarRecord {
        entryCount += 1
        guard entryCount <= limits.maxEntryCount else {
            throw .tooLarge("tar", "more than \(limits.maxEntryCount) entries")
        }
        let path = pax.path ?? longName ?? header.name
        let link = pax.linkPath ?? longLink ?? header.linkName
        let declared = pax.size ?? header.size
        let kind: TarRecord.Kind
        var dataBytes = declared
        switch header.typeflag {
        case UInt8(ascii: "0"), 0, UInt8(ascii: "7"):
            kind = path.last == UInt8(ascii: "/") && header.typeflag != UInt8(ascii: "7") ? .directory : .regular
        case UInt8(ascii: "5"): kind = .directory
        case UInt8(ascii: "2"):
            kind = .symlink(target: link)
            dataBytes = 0
        case UInt8(ascii: "1"):
            kind = .hardlink(target: link)
        case UInt8(ascii: "g"): kind = .globalHeader
        case UInt8(ascii: "S"): kind = .sparse
        case UInt8(ascii: "3"), UInt8(ascii: "4"), UInt8(ascii: "6"):
            kind = .other(typeflag: header.typeflag)
            dataBytes = 0
        default: kind = .other(typeflag: header.typeflag)
        }
        let finalKind = pax.sparse ? .sparse : kind
        let padded = Self.padded(dataBytes)
        let headerBlocks = (position - recordStart) / 512
        let record = TarRecord(
            firstBlock: recordStart / 512, blockCount: headerBlocks + padded / 512, path: path, kind: finalKind,
            size: dataBytes, mode: header.mode)
        longName = nil
        longLink = nil
        pax = PaxHeader()
        records += 1
        if padded > 0 {
            phase = .data(remaining: padded)
        } else {
            phase = .header
            atRecordStart = true
        }
        return record
    }

    static func padded(_ size: Int64) -> Int64 { (size + 511) / 512 * 512 }
}
