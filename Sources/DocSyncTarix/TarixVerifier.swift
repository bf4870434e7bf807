import DocSyncSupport
import Foundation
import GRDB

/// Checks a publisher's index against its archive before docsync trusts it — every row, not one document as Zeal
/// does: each located row's offset is a full flush point inside the file (the walk restarts cold there), the record
/// at its block is named by its path and is exactly `length` blocks long, paths are unique (without case, as the
/// index looks them up), every regular file of the archive is indexed, directory rows name directories, and every
/// record passes `TarixPathPolicy`. One inflate pass over the archive; memory bounded by the directory count.
package enum TarixVerifier {
    /// `observer`: sees the bytes, records and data of this one pass (the installer extracts what lies outside
    /// `Documents/` from it).
    package static func verify(
        archive: Int32, archiveName: String, indexPath: String, limits: TarixLimits = TarixLimits(),
        observer: TarixWalkObserver? = nil
    ) throws(TarixError) -> TarixSummary {
        var st = stat()
        guard fstat(archive, &st) == 0, st.st_mode & S_IFMT == S_IFREG else {
            throw .io(archiveName, "not a regular file")
        }
        return try verify(
            source: FileByteSource(fd: archive, name: archiveName), archiveBytes: Int64(st.st_size),
            archiveName: archiveName, indexPath: indexPath, limits: limits, observer: observer)
    }

    /// `verify` reading through `source`; `archiveBytes` nil while its length is unknown (an archive still
    /// downloading, every read waiting for its bytes: a row past the end fails when the walk ends before it).
    package static func verify(
        source: any ByteSource, archiveBytes: Int64?, archiveName: String, indexPath: String,
        limits: TarixLimits = TarixLimits(), observer: TarixWalkObserver? = nil
    ) throws(TarixError) -> TarixSummary {
        let archiveBytes = archiveBytes ?? .max
        let archive = source
        let database = try IndexDatabase(path: indexPath)
        defer { database.close() }
        do {
            return try database.queue.read { db throws -> TarixSummary in
                try check(
                    db, archive: archive, archiveName: archiveName, archiveBytes: archiveBytes, limits: limits,
                    observer: observer)
            }
        } catch let error as TarixError {
            throw error
        } catch {
            throw .badIndex(indexPath, "cannot read the index: \(error)")
        }
    }

    private struct Row {
        let path: String
        let location: TarixLocation
    }

    private static func check(
        _ db: Database, archive: any ByteSource, archiveName: String, archiveBytes: Int64, limits: TarixLimits,
        observer: TarixWalkObserver?
    ) throws -> TarixSummary {
        if let bad = try String.fetchOne(
            db,
            sql: "SELECT coalesce(path, '(NULL)') FROM tarindex "
                + "WHERE typeof(path) <> 'text' OR typeof(hash) <> 'text' LIMIT 1"
        ) {
            throw TarixError.badIndex(bad.escapingControlCharacters, "path and hash must both be text")
        }
        if let duplicate = try String.fetchOne(
            db, sql: "SELECT path FROM tarindex GROUP BY path COLLATE NOCASE HAVING count(*) > 1 LIMIT 1")
        {
            throw TarixError.badIndex(duplicate.escapingControlCharacters, "indexed more than once")
        }
        let cursor = try GRDB.Row.fetchCursor(
            db, sql: "SELECT path, hash FROM tarindex WHERE hash <> '' ORDER BY CAST(hash AS INTEGER), path")
        let maxBlocks = limits.maxRecordBlocks
        func advance() throws -> Row? {
            guard let row = try cursor.next() else { return nil }
            let path: String = row[0]
            let hash: String = row[1]
            let subject = path.escapingControlCharacters
            guard let location = TarixLocation(hash: hash) else {
                throw TarixError.badIndex(
                    subject, "hash '\(hash.escapingControlCharacters)' is not '<block> <offset> <length>'")
            }
            guard location.offset < archiveBytes else {
                throw TarixError.badIndex(
                    subject, "offset \(location.offset) is past the end of the archive (\(archiveBytes) bytes)")
            }
            guard location.length <= maxBlocks else {
                throw TarixError.badIndex(subject, "length of \(location.length) blocks is over the limit")
            }
            return Row(path: path, location: location)
        }

        var next = try advance()
        var policy = TarixPathPolicy(limits: limits)
        var directories = Set<[UInt8]>()
        var documents = 0
        var located = 0
        var restartedFor = archiveName
        let walk = ArchiveWalk(source: archive, name: archiveName, limits: limits, observer: observer)
        let result: (tarBytes: Int64, archiveBytes: Int64, records: Int)
        do {
            result = try walk.run(
                expect: { block throws(TarixError) -> ArchiveWalk.Expectation in
                    guard let row = next else { return .none }
                    if row.location.block < block {
                        throw .badIndex(
                            row.path.escapingControlCharacters,
                            "block \(row.location.block) is not the first block of a record")
                    }
                    guard row.location.block == block else { return .none }
                    restartedFor = row.path.escapingControlCharacters
                    return .at(row.location.offset, subject: restartedFor)
                },
                onRecord: { record, offset throws(TarixError) in
                    let verdict = try policy.evaluate(record)
                    if let row = next, row.location.block > record.firstBlock,
                        row.location.block < record.firstBlock + record.blockCount
                    {
                        throw .badIndex(
                            row.path.escapingControlCharacters,
                            "block \(row.location.block) is inside the record '\(record.displayPath)'")
                    }
                    if let row = next, row.location.block == record.firstBlock {
                        let subject = row.path.escapingControlCharacters
                        guard Array(row.path.utf8) == record.path else {
                            throw .badIndex(
                                subject,
                                "not in the archive: the record at block \(record.firstBlock) is "
                                    + "'\(record.displayPath)'")
                        }
                        guard verdict != .skip else {
                            throw .badIndex(subject, "indexes an entry docsync leaves out")
                        }
                        guard row.location.length == record.blockCount else {
                            throw .badIndex(
                                subject,
                                "length \(row.location.length) blocks, but the record is "
                                    + "\(record.blockCount) blocks long")
                        }
                        guard offset == row.location.offset else {
                            throw .badIndex(subject, "offset \(row.location.offset) is not where the record starts")
                        }
                        next = try typed { try advance() }
                        located += 1
                        if verdict == .document { documents += 1 }
                    } else if verdict == .document {
                        throw .badIndex(record.displayPath, "in the archive but not in the index")
                    } else if verdict == .directory {
                        directories.insert(normalized(record.path))
                    }
                })
        } catch {
            throw refinement(of: error, archiveName: archiveName, restartedFor: restartedFor)
        }
        if let row = next {
            throw TarixError.badIndex(
                row.path.escapingControlCharacters, "block \(row.location.block) is past the last record of the archive"
            )
        }
        let directoryRows = try String.fetchCursor(db, sql: "SELECT path FROM tarindex WHERE hash = ''")
        var rows = located
        while let path = try directoryRows.next() {
            guard directories.contains(normalized(Array(path.utf8))) else {
                throw TarixError.badIndex(path.escapingControlCharacters, "names no directory of the archive")
            }
            rows += 1
        }
        return TarixSummary(
            mode: .indexedAsIs, records: result.records, documents: documents, indexRows: rows,
            tarBytes: result.tarBytes, archiveBytes: result.archiveBytes,
            rootPrefix: policy.rootPrefix.map { String(decoding: $0, as: UTF8.self) })
    }

    /// A walk that found data referring back across a flush point blames the row that asked for the restart.
    private static func refinement(of error: TarixError, archiveName: String, restartedFor: String) -> TarixError {
        guard error.isNotFlushed else { return error }
        if error.subject == archiveName { return .corruptArchive(archiveName, error.message) }
        return .badIndex(restartedFor, error.message)
    }

    private static func normalized(_ path: [UInt8]) -> [UInt8] {
        path.last == UInt8(ascii: "/") ? Array(path.dropLast()) : path
    }
}
