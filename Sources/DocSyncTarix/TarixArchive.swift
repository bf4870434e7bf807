import CZlib
import DocSyncSupport
import Foundation
import GRDB

/// Reads single documents out of an installed tarix store (`Contents/Resources/tarix.tgz` and `tarixIndex.db`)
/// without unpacking it: one index lookup and one bounded raw inflate from the record's flush point (a short record
/// whose end is known inflated whole, in one call), read with
/// `pread` on a descriptor opened without following symlinks. Paths are looked up as Zeal does: relative to the
/// docset folder (the index's `X.docset/` prefix is added), without case. Thread-safe.
package final class TarixArchive: Sendable {
    private let archive: Int32
    private let archiveName: String
    private let index: IndexDatabase
    private let limits: TarixLimits
    /// The prefix Zeal strips (`X.docset/`), found as Zeal finds it: the first `.docset/` of an indexed path.
    package let rootPrefix: String

    /// The documents' locations in memory, when the store was opened with `mappingUpTo`.
    private let locations: TarixLocationMap?

    /// Opens `archivePath` and `indexPath` (neither may be a symlink); `mappingUpTo` as
    /// ``init(resources:limits:mappingUpTo:)``'s.
    package convenience init(
        archivePath: String, indexPath: String, limits: TarixLimits = TarixLimits(), mappingUpTo maxMapped: Int = 0
    ) throws(TarixError) {
        let fd = open(archivePath, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            throw .io(
                archivePath, errno == ELOOP ? "is a symbolic link" : "cannot open: \(String(cString: strerror(errno)))")
        }
        let index: IndexDatabase
        do { index = try IndexDatabase(path: indexPath) } catch {
            close(fd)
            throw error
        }
        try self.init(archive: fd, archiveName: archivePath, index: index, limits: limits, maxMapped: maxMapped)
    }

    /// Opens `tarix.tgz` and `tarixIndex.db` in a docset's `Contents/Resources` folder. With `mappingUpTo` N > 0,
    /// an index of at most N rows is also read once into memory (16 bytes per document; see `TarixLocationMap`), so
    /// that reads need no index query: for a reader that keeps the store open for many reads.
    package convenience init(
        resources: SafeDirectory, limits: TarixLimits = TarixLimits(), mappingUpTo maxMapped: Int = 0
    ) throws(TarixError) {
        let archive: Int32
        let indexFD: Int32
        do { archive = try resources.openFile("tarix.tgz", O_RDONLY) } catch { throw .io(error.path, "\(error)") }
        do { indexFD = try resources.openFile("tarixIndex.db", O_RDONLY) } catch {
            close(archive)
            throw .io(error.path, "\(error)")
        }
        let index: IndexDatabase
        do { index = try IndexDatabase(fd: indexFD, path: resources.childPath("tarixIndex.db")) } catch {
            close(archive)
            throw error
        }
        try self.init(
            archive: archive, archiveName: resources.childPath("tarix.tgz"), index: index, limits: limits,
            maxMapped: maxMapped)
    }

    private init(archive: Int32, archiveName: String, index: IndexDatabase, limits: TarixLimits, maxMapped: Int = 0)
        throws(TarixError)
    {
        var st = stat()
        guard fstat(archive, &st) == 0, st.st_mode & S_IFMT == S_IFREG else {
            close(archive)
            index.close()
            throw .io(archiveName, "not a regular file")
        }
        self.archive = archive
        self.archiveName = archiveName
        self.index = index
        self.limits = limits
        let sample = try? index.queue.read { db in
            try String.fetchOne(db, sql: "SELECT path FROM tarindex WHERE path LIKE '%.docset/%' LIMIT 1")
        }
        if let sample = sample ?? nil, let range = sample.range(of: ".docset/") {
            rootPrefix = String(sample[..<range.upperBound])
        } else {
            rootPrefix = ""
        }
        locations = maxMapped > 0 ? TarixLocationMap(index: index, maxEntries: maxMapped) : nil
    }

    /// Documents whose locations are kept in memory (0 without a map).
    package var mappedDocuments: Int { locations?.count ?? 0 }

    deinit {
        close(archive)
        index.close()
    }

    /// Every document's path relative to the docset folder (`Contents/Resources/Documents/…`), in the index's order
    /// (directories, which have no location, left out).
    package func documentPaths() throws(TarixError) -> [String] {
        let prefix = rootPrefix
        do {
            return try index.queue.read { db in
                try String.fetchAll(db, sql: "SELECT path FROM tarindex WHERE hash != ''")
            }.map { $0.hasPrefix(prefix) ? String($0.dropFirst(prefix.count)) : $0 }
        } catch {
            throw .badIndex(archiveName, "cannot list the documents: \(error)")
        }
    }

    /// As `documentPaths()`, `batch` paths read at a time (in the index's path order, not its insertion order), so
    /// that going through every document holds no list of them: 300,000 paths cost about 25 MB as Strings.
    package func forEachDocumentPath(batch: Int = 4096, _ body: (String) throws -> Void) throws {
        let prefix = rootPrefix
        var last: String?
        while true {
            let stored: [String]
            do {
                stored = try index.queue.read { db in
                    try String.fetchAll(
                        db, sql: "SELECT path FROM tarindex WHERE hash != '' AND path > ? ORDER BY path LIMIT ?",
                        arguments: [last ?? "", batch])
                }
            } catch {
                throw TarixError.badIndex(archiveName, "cannot list the documents: \(error)")
            }
            for path in stored { try body(path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path) }
            guard stored.count == batch, let next = stored.last else { return }
            last = next
        }
    }

    /// True when `path` (relative to the docset folder) names a document (directories have no location).
    package func exists(_ path: String) -> Bool {
        guard let row = try? lookup(path) else { return false }
        return !row.hash.isEmpty
    }

    /// True when `path` (relative to the docset folder, with or without a trailing `/`) names a directory.
    package func isDirectory(_ path: String) -> Bool {
        let bare = path.hasSuffix("/") ? String(path.dropLast()) : path
        for candidate in [bare, bare + "/"] {
            if let row = try? lookup(candidate), row.hash.isEmpty { return true }
        }
        return false
    }

    /// The bytes of the document at `path`, relative to the docset folder
    /// (`Contents/Resources/Documents/index.html`), inflated by `engine` (by default ISA-L for long records,
    /// libdeflate or zlib for short ones).
    package func read(_ path: String, engine: RecordInflate = .bySize) throws(TarixError) -> [UInt8] {
        let bytes = try read(path, engine: engine) { size, fill in
            [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
                count = fill(UnsafeMutableRawBufferPointer(buffer)) ? size : 0
            }
        }
        return bytes ?? []
    }

    /// The document at `path` (relative to the docset folder) inflated straight into the caller's storage:
    /// `output(size, fill)` is called once the record's header is checked (its size within the limits and the
    /// index), makes storage of `size` bytes and calls `fill` on them once; `fill` writes exactly `size` bytes and
    /// returns true, or false when the read failed (the error is then thrown here).
    ///
    /// With `withoutWaitingUpTo` (a byte count), the read never waits: only the map of locations is asked (no
    /// index query; see ``init(resources:limits:mappingUpTo:)``), records longer than that are not read, and the
    /// archive's bytes are read only from the page cache (`RWF_NOWAIT`): nil when any of that is not possible
    /// (then read on a thread that may block). Errors are the same as a blocking read's. `engine` inflates the
    /// record (``RecordInflate``: by default ISA-L for long records, libdeflate for short ones whose compressed end
    /// the map of locations knows, zlib for the others; all give the same bytes).
    package func read<Output>(
        _ path: String, withoutWaitingUpTo inlineBytes: Int? = nil, engine: RecordInflate = .bySize,
        into output: (_ size: Int, _ fill: (UnsafeMutableRawBufferPointer) -> Bool) -> Output
    ) throws(TarixError) -> Output? {
        if let locations {
            let full = rootPrefix + path
            if let location = locations.location(of: full) {
                // The record's blocks: the document's, padded, and its header (two blocks allowed for).
                if let inlineBytes, location.length * 512 > Int64(inlineBytes) + 1024 { return nil }
                switch readLocated(
                    location, end: locations.end(after: location.offset), path: path, expected: .folded(full),
                    inline: inlineBytes != nil, engine: engine, output)
                {
                case .success(let result): return result
                case .failure(.wouldBlock): return nil
                case .failure(.otherRecord): break  // a key shared with another path: the index decides
                case .failure(.failed(let error)): throw error
                }
            }
        }
        if inlineBytes != nil { return nil }
        guard let row = try lookup(path) else { throw .notFound(path.escapingControlCharacters) }
        guard !row.hash.isEmpty else { throw .unsupportedEntry(path.escapingControlCharacters, "is a directory") }
        guard let location = TarixLocation(hash: row.hash) else {
            throw .badIndex(
                path.escapingControlCharacters,
                "hash '\(row.hash.escapingControlCharacters)' is not '<block> <offset> <length>'")
        }
        let end = locations?.end(after: location.offset)
        switch readLocated(
            location, end: end, path: path, expected: .exactly(row.path), inline: false, engine: engine, output)
        {
        case .success(let result): return result
        case .failure(.failed(let error)): throw error
        case .failure(.otherRecord):
            throw .badIndex(path.escapingControlCharacters, "the record at offset \(location.offset) is another path")
        case .failure(.wouldBlock):
            throw .io(archiveName, "read failed: \(String(cString: strerror(EAGAIN)))")
        }
    }

    /// Which path the record found must carry.
    private enum Expected {
        /// The index row's path, byte for byte.
        case exactly(String)
        /// The requested path, without ASCII case (as the index's `COLLATE NOCASE` matched it).
        case folded(String)
    }

    private enum ReadFailure: Error {
        case failed(TarixError)
        /// The record's header names another path (only from the map of locations: the index is asked then).
        case otherRecord
        /// A read without waiting found bytes not in the page cache.
        case wouldBlock
    }

    /// `end`: the record's compressed end when known (the next document's flush point), for a whole-buffer inflate.
    private func readLocated<Output>(
        _ location: TarixLocation, end: Int64?, path: String, expected: Expected, inline: Bool,
        engine: RecordInflate, _ output: (_ size: Int, _ fill: (UnsafeMutableRawBufferPointer) -> Bool) -> Output
    ) -> Result<Output, ReadFailure> {
        guard location.length <= limits.maxRecordBlocks else {
            return .failure(
                .failed(
                    .tooLarge(path.escapingControlCharacters, "record of \(location.length) blocks is over the limit")))
        }
        do throws(TarixError) {
            let strict = engine == .libdeflate
            let engine = engine.resolved(blocks: location.length)
            return try RecordReaderPool.with(engine) { reader throws(TarixError) in
                if engine == .libdeflate {
                    switch reader.inflateWhole(from: archive, location, end: end, inline: inline) {
                    case .inflated(let whole):
                        return readRecord(
                            location, expected: expected, path: path, inline: inline, reader: reader, zlib: nil,
                            whole: whole, output)
                    case .notWhole:
                        if strict {
                            throw .corruptArchive(
                                path.escapingControlCharacters,
                                "the record at offset \(location.offset) is not one whole deflate stream to its end")
                        }
                        try reader.zlib().reset()  // zlib streams it instead
                    case .wouldBlock:
                        return .failure(.wouldBlock)
                    }
                }
                let zlib = engine == .isal ? nil : try reader.zlib()
                return readRecord(
                    location, expected: expected, path: path, inline: inline, reader: reader, zlib: zlib, whole: nil,
                    output)
            }
        } catch {
            return .failure(.failed(error))
        }
    }

    private func lookup(_ path: String) throws(TarixError) -> (path: String, hash: String)? {
        do {
            return try index.queue.read { db -> (String, String)? in
                let statement = try db.cachedStatement(sql: "SELECT path, hash FROM tarindex WHERE path = ?")
                guard let row = try GRDB.Row.fetchOne(statement, arguments: [rootPrefix + path]) else { return nil }
                let stored: String? = row[0]
                let hash: String? = row[1]
                return (stored ?? "", hash ?? "")
            }
        } catch {
            throw .badIndex(path.escapingControlCharacters, "cannot read the index: \(error)")
        }
    }

    /// Raw inflate (ISA-L's, or `zlib`'s when given; or the `whole` record libdeflate inflated before, copied out)
    /// from the record's flush point: the header chain first (at most
    /// one block at a time, into a 512-byte block on the stack), then — once the declared size is checked against
    /// the limit and the index — exactly the document's bytes, straight into `output`'s storage. Compressed bytes are read with `pread`
    /// (`RWF_NOWAIT` when `inline`), about as many as the record needs.
    private func readRecord<Output>(
        _ location: TarixLocation, expected: Expected, path: String, inline: Bool, reader: RecordReader,
        zlib: Inflater?, whole: UnsafeRawBufferPointer?,
        _ output: (_ size: Int, _ fill: (UnsafeMutableRawBufferPointer) -> Bool) -> Output
    ) -> Result<Output, ReadFailure> {
        let isal = zlib == nil && whole == nil ? reader.isal() : nil
        var wholeAt = 0
        let input = reader.input
        var inStart = 0
        var inEnd = 0
        var fileOffset = location.offset
        // Text compresses to well under half: the first read asks for half the record (the rest comes if needed).
        var wanted = min(input.count, max(4096, Int(location.length) * 256))
        var scanner = TarScanner(limits: limits)
        var record: TarRecord?
        func subject() -> String { path.escapingControlCharacters }

        func pump(_ out: UnsafeMutableRawBufferPointer) throws(ReadFailure) -> Int {
            if let whole {
                let n = min(out.count, whole.count - wholeAt)
                guard n > 0 || out.count == 0 else {
                    throw .failed(.corruptArchive(subject(), "the archive ends inside the record"))
                }
                out.baseAddress?.copyMemory(from: whole.baseAddress! + wholeAt, byteCount: n)
                wholeAt += n
                return n
            }
            if inStart == inEnd {
                let target = UnsafeMutableRawBufferPointer(rebasing: input[0..<wanted])
                let n =
                    inline
                    ? ContainedFile.readCached(archive, into: target, at: Int(fileOffset))
                    : pread(archive, target.baseAddress!, target.count, off_t(fileOffset))
                if n < 0 {
                    if inline, errno == EAGAIN { throw .wouldBlock }
                    throw .failed(.io(archiveName, "read failed: \(String(cString: strerror(errno)))"))
                }
                if n == 0 { throw .failed(.corruptArchive(subject(), "the archive ends inside the record")) }
                fileOffset += Int64(n)
                inStart = 0
                inEnd = n
                wanted = input.count
            }
            let compressed = UnsafeRawBufferPointer(rebasing: input[inStart..<inEnd])
            if let isal {
                // ISA-L decodes ahead into its own 64 KiB buffer whenever the output space left is small (a header
                // block, a page's tail), as far as the input given allows: into the next records, each with its
                // Huffman tables to build. Input is fed in slices about as long as the output still wanted could
                // need (a quarter of it: text inflates 3-10x), so that the overshoot stays small.
                let slice = min(compressed.count, max(256, out.count / 4))
                let step = isal.inflate(UnsafeRawBufferPointer(rebasing: compressed[0..<slice]), out)
                inStart += step.consumed
                switch step.outcome {
                case .more: break
                case .end where step.produced == out.count: break
                case .end: throw .failed(.corruptArchive(subject(), "the archive ends inside the record"))
                case .invalid(let code):
                    throw .failed(
                        .badIndex(
                            subject(),
                            "offset \(location.offset) does not start a record: \(RawInflater.describe(code))"))
                }
                return step.produced
            }
            guard let zlib else { throw .failed(.io(archiveName, "no decoder for the record")) }  // never: one is given
            let step = zlib.inflate(compressed, out, flush: Z_NO_FLUSH)
            inStart += step.consumed
            switch step.code {
            case Z_OK, Z_BUF_ERROR: break
            case Z_STREAM_END where step.produced == out.count: break
            case Z_STREAM_END: throw .failed(.corruptArchive(subject(), "the archive ends inside the record"))
            default:
                throw .failed(
                    .badIndex(subject(), "offset \(location.offset) does not start a record: \(zlib.message)"))
            }
            return step.produced
        }

        do throws(ReadFailure) {
            try withUnsafeTemporaryAllocation(byteCount: 512, alignment: 16) { block throws(ReadFailure) in
                while record == nil {
                    guard scanner.position < location.length * 512 else {
                        throw .failed(
                            .badIndex(subject(), "no complete header in the record's \(location.length) blocks"))
                    }
                    let produced = try pump(UnsafeMutableRawBufferPointer(rebasing: block[0..<scanner.safeLength]))
                    var rest = 0
                    while rest < produced {
                        do throws(TarixError) {
                            let (consumed, found) = try scanner.consume(
                                UnsafeRawBufferPointer(rebasing: block[rest..<produced]))
                            rest += consumed
                            if let found { record = found }
                        } catch {
                            throw .failed(error)
                        }
                    }
                }
            }
        } catch {
            return .failure(error)
        }
        guard let record else {
            return .failure(.failed(.badIndex(subject(), "no record at offset \(location.offset)")))
        }
        switch expected {
        case .exactly(let stored):
            guard record.path == Array(stored.utf8) else {
                return .failure(
                    .failed(.badIndex(subject(), "the record at offset \(location.offset) is '\(record.displayPath)'")))
            }
        case .folded(let requested):
            guard TarixLocationMap.equalFolded(record.path, requested) else { return .failure(.otherRecord) }
        }
        guard record.kind == .regular else {
            return .failure(.failed(.unsupportedEntry(subject(), "not a regular file")))
        }
        guard record.size <= limits.maxDocumentBytes else {
            return .failure(
                .failed(.tooLarge(subject(), "\(record.size) bytes, over the \(limits.maxDocumentBytes)-byte limit")))
        }
        guard record.blockCount == location.length else {
            return .failure(
                .failed(
                    .badIndex(
                        subject(), "the index says \(location.length) blocks, the record has \(record.blockCount)")))
        }
        var failure: ReadFailure?
        let result = output(Int(record.size)) { content in
            var filled = 0
            while filled < content.count {
                do throws(ReadFailure) {
                    filled += try pump(UnsafeMutableRawBufferPointer(rebasing: content[filled...]))
                } catch {
                    failure = error
                    return false
                }
            }
            return true
        }
        if let failure { return .failure(failure) }
        return .success(result)
    }
}
