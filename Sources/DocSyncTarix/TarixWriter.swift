/// Re-encodes a tar byte stream into a tarix archive while it streams: the bytes are deflated into a gzip file with
/// a zlib full flush before every record, and each record's `"<block> <offset> <length>"` goes to the index as soon
/// as its header chain is read. Memory is constant in the number of entries (one header, one output buffer, one
/// batch of index rows).
///
/// Feed it the *uncompressed* tar (`GzipDecoder` inflates a `.tgz`); the archive is written to a descriptor the
/// caller opened, the index to a new SQLite file.
package final class TarixWriter {
    private let sink: FileSink
    private let deflater: Deflater
    private let index: TarixIndexWriter
    private var scanner: TarScanner
    private var policy: TarixPathPolicy
    private var flushedAt: (position: Int64, offset: Int64) = (-1, 0)
    private var documents = 0

    /// `level`: zlib's 1 (fastest) to 9; a full flush per record costs ratio at every level, and 1 keeps the
    /// re-encode near the cost of inflating.
    package convenience init(
        archive fd: Int32, archiveName: String, indexPath: String, level: Int32 = 1, limits: TarixLimits = TarixLimits()
    ) throws(TarixError) {
        try self.init(
            archive: fd, archiveName: archiveName, index: TarixIndexWriter(path: indexPath), level: level,
            limits: limits)
    }

    init(archive fd: Int32, archiveName: String, index: TarixIndexWriter, level: Int32, limits: TarixLimits)
        throws(TarixError)
    {
        let sink = FileSink(fd: fd, name: archiveName)
        self.sink = sink
        deflater = try Deflater(level: level) { bytes throws(TarixError) in try sink.append(bytes) }
        self.index = index
        scanner = TarScanner(limits: limits)
        policy = TarixPathPolicy(limits: limits)
    }

    /// Takes the next bytes of the tar stream.
    package func write(_ bytes: UnsafeRawBufferPointer) throws(TarixError) {
        var rest = bytes
        while !rest.isEmpty {
            if scanner.atRecordStart, flushedAt.position != scanner.position {
                try deflater.fullFlush()
                flushedAt = (scanner.position, deflater.totalOut)
            }
            let (consumed, record) = try scanner.consume(rest)
            try deflater.write(UnsafeRawBufferPointer(rebasing: rest[0..<consumed]))
            rest = UnsafeRawBufferPointer(rebasing: rest[consumed...])
            if let record { try add(record) }
        }
    }

    /// Ends the archive and commits the index; the caller syncs and closes the descriptor.
    package func finish() throws(TarixError) -> TarixSummary {
        try scanner.finish()
        try deflater.finish()
        try sink.flush()
        try index.commit()
        return TarixSummary(
            mode: .reencoded, records: scanner.records, documents: documents, indexRows: index.rows,
            tarBytes: scanner.position, archiveBytes: sink.written,
            rootPrefix: policy.rootPrefix.map { String(decoding: $0, as: UTF8.self) })
    }

    private func add(_ record: TarRecord) throws(TarixError) {
        switch try policy.evaluate(record) {
        case .skip: return
        case .directory: try index.add(path: String(decoding: record.path, as: UTF8.self), hash: "")
        case .document:
            guard flushedAt.position == record.firstBlock * 512 else {
                throw .corruptArchive(record.displayPath, "record does not start at a flush point")
            }
            let location = TarixLocation(block: record.firstBlock, offset: flushedAt.offset, length: record.blockCount)
            try index.add(path: String(decoding: record.path, as: UTF8.self), hash: location.description)
            documents += 1
        }
    }
}
