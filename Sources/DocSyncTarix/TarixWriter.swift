import DocSyncSupport

/// Re-encodes a tar byte stream into a tarix archive while it streams: the bytes are deflated into a gzip file with
/// a zlib full flush before every record, on two worker threads (`ParallelDeflater`), and each record's
/// `"<block> <offset> <length>"` goes to the index once its flush point's compressed offset is known (when the
/// jobs before it are written). Memory is constant in the number of entries (a few jobs in flight, one header, the
/// index rows of the jobs in flight, one batch of index rows).
///
/// Feed it the *uncompressed* tar (`GzipDecoder` inflates a `.tgz`); the archive is written to a descriptor the
/// caller opened, the index to a new SQLite file.
package final class TarixWriter {
    /// A record start (a flush point): its compressed offset once the jobs before it are written, and its index row
    /// once the record's header chain is read — whichever comes last sends the row to the index.
    private struct Start {
        let position: Int64
        var offset: Int64?
        var reported = false
        var path = ""
        /// Nil for a directory (no location).
        var blocks: Int64?
        /// False for a record the index leaves out.
        var indexed = false
    }

    private let sink: FileSink
    private var deflater: ParallelDeflater!
    private let index: TarixIndexWriter
    private var scanner: TarScanner
    private var policy: TarixPathPolicy
    private let observer: TarixWalkObserver?
    private var markedAt: Int64 = -1
    /// Record starts whose row is not in the index yet, oldest first (from `head`).
    private var starts: [Start] = []
    private var head = 0
    private var documents = 0
    /// The observer's view of the record last reported: data bytes still to hand over (then its padding).
    private var dataLeft: Int64 = 0

    /// `level`: zlib's 1 (fastest) to 9; a full flush per record costs ratio at every level, and 1 keeps the
    /// re-encode near the cost of inflating. `jobBytes`: the input of one deflate job (records are cut into jobs
    /// of about half of it; a larger one goes in pieces of this size).
    package convenience init(
        archive fd: Int32, archiveName: String, indexPath: String, level: Int32 = 1, limits: TarixLimits = TarixLimits(),
        jobBytes: Int = ParallelDeflater.defaultJobBytes
    ) throws(TarixError) {
        try self.init(
            archive: fd, archiveName: archiveName, index: TarixIndexWriter(path: indexPath), level: level,
            limits: limits, jobBytes: jobBytes)
    }

    /// `observer`: sees every record and its data as the stream goes (its `read` is the caller's to call).
    init(
        archive fd: Int32, archiveName: String, index: TarixIndexWriter, level: Int32, limits: TarixLimits,
        observer: TarixWalkObserver? = nil, jobBytes: Int = ParallelDeflater.defaultJobBytes
    ) throws(TarixError) {
        let sink = FileSink(fd: fd, name: archiveName, hashing: true)
        self.sink = sink
        self.index = index
        self.observer = observer
        scanner = TarScanner(limits: limits)
        policy = TarixPathPolicy(limits: limits)
        deflater = try ParallelDeflater(level: level, sink: sink, jobBytes: jobBytes) {
            [unowned self] position, offset throws(TarixError) in try self.located(position, offset)
        }
    }

    deinit { deflater?.stop() }

    /// Takes the next bytes of the tar stream.
    package func write(_ bytes: UnsafeRawBufferPointer) throws(TarixError) {
        var rest = bytes
        while !rest.isEmpty {
            if scanner.atRecordStart, markedAt != scanner.position {
                starts.append(Start(position: scanner.position))
                markedAt = scanner.position
                try deflater.recordStart()
            }
            let (consumed, record) = try scanner.consume(rest)
            if dataLeft > 0, let observer {
                // A consume that starts in a record's data consumes only data and padding.
                let n = Int(min(dataLeft, Int64(consumed)))
                dataLeft -= Int64(n)
                try observer.data(UnsafeRawBufferPointer(rebasing: rest[0..<n]))
            }
            try deflater.write(UnsafeRawBufferPointer(rebasing: rest[0..<consumed]))
            rest = UnsafeRawBufferPointer(rebasing: rest[consumed...])
            if let record {
                if let observer {
                    try observer.record(record)
                    dataLeft = record.size
                }
                try add(record)
            }
        }
    }

    /// Ends the archive and commits the index; the caller syncs and closes the descriptor.
    package func finish() throws(TarixError) -> TarixSummary {
        try scanner.finish()
        let compressed = try deflater.finish()
        // Only the end-of-archive marker's start may be left: it names no record.
        if let left = starts[head...].first(where: { $0.reported }) {
            throw .corruptArchive(left.path, "no flush point located for this record")
        }
        try sink.flush()
        try index.commit()
        return TarixSummary(
            mode: .reencoded, records: scanner.records, documents: documents, indexRows: index.rows,
            tarBytes: scanner.position, archiveBytes: compressed,
            rootPrefix: policy.rootPrefix.map { String(decoding: $0, as: UTF8.self) },
            archiveSHA256: sink.hash?.finalize().description)
    }

    private func add(_ record: TarRecord) throws(TarixError) {
        guard markedAt == record.firstBlock * 512, let last = starts.indices.last, last >= head,
            starts[last].position == markedAt
        else {
            throw .corruptArchive(record.displayPath, "record does not start at a flush point")
        }
        starts[last].reported = true
        switch try policy.evaluate(record) {
        case .skip: break
        case .directory:
            starts[last].indexed = true
        case .document:
            starts[last].indexed = true
            starts[last].blocks = record.blockCount
            documents += 1
        }
        if starts[last].indexed { starts[last].path = String(decoding: record.path, as: UTF8.self) }
        try sendRows()
    }

    /// The flush point before the record at uncompressed `position` is at compressed `offset` (flush points come
    /// in order, one per record start).
    private func located(_ position: Int64, _ offset: Int64) throws(TarixError) {
        guard head < starts.count, let at = starts[head...].firstIndex(where: { $0.offset == nil }),
            starts[at].position == position
        else {
            throw .corruptArchive("tar block \(position / 512)", "a flush point no record start asked for")
        }
        starts[at].offset = offset
        try sendRows()
    }

    /// Sends the rows of the oldest record starts whose offset and record are both known.
    private func sendRows() throws(TarixError) {
        while head < starts.count, let offset = starts[head].offset, starts[head].reported {
            let start = starts[head]
            head += 1
            guard start.indexed else { continue }
            let location = start.blocks.map {
                TarixLocation(block: start.position / 512, offset: offset, length: $0).description
            }
            try index.add(path: start.path, hash: location ?? "")
        }
        if head >= 1024, head * 2 >= starts.count {
            starts.removeFirst(head)
            head = 0
        }
    }
}
