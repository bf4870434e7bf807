import CZlib
import DocSyncSupport
import Foundation
import GRDB

/// Reads single documents out of an installed tarix store (`Contents/Resources/tarix.tgz` and `tarixIndex.db`)
/// without unpacking it: one index lookup and one bounded raw inflate from the record's flush point, read with
/// `pread` on a descriptor opened without following symlinks. Paths are looked up as Zeal does: relative to the
/// docset folder (the index's `X.docset/` prefix is added), without case. Thread-safe.
package final class TarixArchive: Sendable {
    private let archive: Int32
    private let archiveName: String
    private let index: IndexDatabase
    private let limits: TarixLimits
    /// The prefix Zeal strips (`X.docset/`), found as Zeal finds it: the first `.docset/` of an indexed path.
    package let rootPrefix: String

    private static let inputChunk = 32 << 10

    /// Opens `archivePath` and `indexPath` (neither may be a symlink).
    package convenience init(archivePath: String, indexPath: String, limits: TarixLimits = TarixLimits())
        throws(TarixError)
    {
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
        try self.init(archive: fd, archiveName: archivePath, index: index, limits: limits)
    }

    /// Opens `tarix.tgz` and `tarixIndex.db` in a docset's `Contents/Resources` folder.
    package convenience init(resources: SafeDirectory, limits: TarixLimits = TarixLimits()) throws(TarixError) {
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
        try self.init(archive: archive, archiveName: resources.childPath("tarix.tgz"), index: index, limits: limits)
    }

    private init(archive: Int32, archiveName: String, index: IndexDatabase, limits: TarixLimits) throws(TarixError) {
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
    }

    deinit {
        close(archive)
        index.close()
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
    /// (`Contents/Resources/Documents/index.html`).
    package func read(_ path: String) throws(TarixError) -> [UInt8] {
        let subject = path.escapingControlCharacters
        guard let row = try lookup(path) else { throw .notFound(subject) }
        guard !row.hash.isEmpty else { throw .unsupportedEntry(subject, "is a directory") }
        guard let location = TarixLocation(hash: row.hash) else {
            throw .badIndex(subject, "hash '\(row.hash.escapingControlCharacters)' is not '<block> <offset> <length>'")
        }
        let maxBlocks = limits.maxRecordBlocks
        guard location.length <= maxBlocks else {
            throw .tooLarge(subject, "record of \(location.length) blocks is over the limit")
        }
        return try readRecord(location, storedPath: row.path, subject: subject)
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

    /// Raw inflate from the record's flush point: the header chain first (at most one block at a time), then —
    /// once the declared size is checked against the limit and the index — exactly the document's bytes.
    private func readRecord(_ location: TarixLocation, storedPath: String, subject: String) throws(TarixError)
        -> [UInt8]
    {
        let inflater = try Inflater(windowBits: -MAX_WBITS)
        var input = [UInt8](repeating: 0, count: Self.inputChunk)
        var inStart = 0
        var inEnd = 0
        var fileOffset = location.offset
        var scanner = TarScanner(limits: limits)
        var block = [UInt8](repeating: 0, count: 512)
        var record: TarRecord?

        func pump(_ out: UnsafeMutableRawBufferPointer) throws(TarixError) -> Int {
            if inStart == inEnd {
                let at = fileOffset
                let capacity = input.count
                let n = input.withUnsafeMutableBytes { pread(archive, $0.baseAddress!, capacity, off_t(at)) }
                if n < 0 { throw .io(archiveName, "read failed: \(String(cString: strerror(errno)))") }
                if n == 0 { throw .corruptArchive(subject, "the archive ends inside the record") }
                fileOffset += Int64(n)
                inStart = 0
                inEnd = n
            }
            let step = input.withUnsafeBytes {
                inflater.inflate(UnsafeRawBufferPointer(rebasing: $0[inStart..<inEnd]), out, flush: Z_NO_FLUSH)
            }
            inStart += step.consumed
            switch step.code {
            case Z_OK, Z_BUF_ERROR: break
            case Z_STREAM_END where step.produced == out.count: break
            case Z_STREAM_END: throw .corruptArchive(subject, "the archive ends inside the record")
            default: throw .badIndex(subject, "offset \(location.offset) does not start a record: \(inflater.message)")
            }
            return step.produced
        }

        while record == nil {
            guard scanner.position < location.length * 512 else {
                throw .badIndex(subject, "no complete header in the record's \(location.length) blocks")
            }
            let want = scanner.safeLength
            let produced = try typed {
                try block.withUnsafeMutableBytes { out in
                    try pump(UnsafeMutableRawBufferPointer(rebasing: out[0..<want]))
                }
            }
            var rest = 0
            while rest < produced {
                let (consumed, found) = try typed {
                    try block.withUnsafeBytes { bytes in
                        try scanner.consume(UnsafeRawBufferPointer(rebasing: bytes[rest..<produced]))
                    }
                }
                rest += consumed
                if let found { record = found }
            }
        }
        guard let record else { throw .badIndex(subject, "no record at offset \(location.offset)") }
        guard record.path == Array(storedPath.utf8) else {
            throw .badIndex(subject, "the record at offset \(location.offset) is '\(record.displayPath)'")
        }
        guard record.kind == .regular else { throw .unsupportedEntry(subject, "not a regular file") }
        guard record.size <= limits.maxDocumentBytes else {
            throw .tooLarge(subject, "\(record.size) bytes, over the \(limits.maxDocumentBytes)-byte limit")
        }
        guard record.blockCount == location.length else {
            throw .badIndex(subject, "the index says \(location.length) blocks, the record has \(record.blockCount)")
        }
        var content = [UInt8](repeating: 0, count: Int(record.size))
        var filled = 0
        while filled < content.count {
            let at = filled
            filled += try typed {
                try content.withUnsafeMutableBytes { out in
                    try pump(UnsafeMutableRawBufferPointer(rebasing: out[at...]))
                }
            }
        }
        return content
    }
}
