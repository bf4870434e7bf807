import DocSyncSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a root's change log without writing anything (a user who may only read the root can): each read opens
/// `<root>/.docsync/changes/log` anew, every component without following a link.
///
/// The reader's half of `ChangeLogWriter`'s rule: the log's last record is reported only once its flip happened
/// (`NAME.docset` no longer shows the record's `from`); until then neither it nor a cursor past it exists.
package struct ChangeLogReader: Sendable {
    package let root: String

    package init(root: String) { self.root = root }

    /// What a read found: the settled records after the cursor, oldest first, and the cursor after the last of them.
    package struct Batch: Sendable, Equatable {
        package var records: [ChangeRecord]
        /// The log's epoch (nil: the root has no log yet).
        package var epoch: String?
        /// The cursor after `records` (the one read from when there are none; nil: no log).
        package var cursor: ChangeCursor?
    }

    /// The cursor after the last settled record, without reading the records before it (nil: no log).
    package func head() throws(ChangeReadError) -> ChangeCursor? {
        try read(since: nil, headOnly: true, reserve: { _ in }, { _, _ in true }).cursor
    }

    /// The settled records after `cursor` (nil: all the log keeps).
    package func read(since cursor: ChangeCursor?) throws(ChangeReadError) -> Batch {
        var records: [ChangeRecord] = []
        let end = try read(since: cursor, reserve: { records.reserveCapacity($0) }) { record, _ in
            records.append(record)
        }
        return Batch(records: records, epoch: end.epoch, cursor: end.cursor)
    }

    /// Where `read(since:reserve:_:)` ended.
    package struct End: Sendable, Equatable {
        /// The log's epoch (nil: the root has no log yet).
        package var epoch: String?
        /// The cursor after the last record visited (the one read from when there were none; nil: no log).
        package var cursor: ChangeCursor?
    }

    /// Visits the settled records after `cursor` as they are read, oldest first, each with the log's epoch (nothing
    /// kept here: the caller makes what it needs of each); `reserve` is told first how many will come.
    package func read(
        since cursor: ChangeCursor?, reserve: (Int) -> Void, _ visit: (ChangeRecord, String) -> Void
    ) throws(ChangeReadError) -> End {
        var strings = ChangeStrings()  // one String per record, its new folder: the rest is shared
        var bad = false
        let end = try read(since: cursor, headOnly: false, reserve: reserve) { line, epoch in
            guard let record = ChangeRecord(line, sharing: &strings) else {
                bad = true
                return false
            }
            visit(record, epoch)
            return true
        }
        if bad { throw .unreadable("\(logPath): a text field's escapes do not decode") }
        return end
    }

    /// Visits the settled records after `cursor` as their lines' fields (bytes valid only during the call, checked
    /// as records are), oldest first, each with the log's epoch, while `visit` says so: for a reader that writes the
    /// records out as it reads them and keeps nothing (`docsync changes --json`).
    package func readLines(since cursor: ChangeCursor?, _ visit: (ChangeLine, String) -> Bool)
        throws(ChangeReadError) -> End
    {
        try read(since: cursor, headOnly: false, reserve: { _ in }, visit)
    }

    /// The log's path, for messages.
    private var logPath: String {
        "\(root)/\(VersionStore.stateName)/\(ChangeLogFile.folderName)/\(ChangeLogFile.fileName)"
    }

    private func read(
        since cursor: ChangeCursor?, headOnly: Bool, reserve: (Int) -> Void, _ visit: (ChangeLine, String) -> Bool
    ) throws(ChangeReadError) -> End {
        guard let (rootFolder, fd) = try openLog() else {
            if let cursor { throw .unknownCursor(cursor.text) }
            return End(epoch: nil, cursor: nil)
        }
        defer { close(fd) }
        do {
            let file = try ChangeLogFile(fd: fd, path: logPath)
            var settled = file.first - 1
            let last = try file.lastRecord()?.record
            if let last { settled = isFlipped(last, in: rootFolder) ? last.sequence : last.sequence - 1 }
            let since = cursor?.sequence ?? (file.first - 1)
            if let cursor {
                switch cursor.standing(epoch: file.epoch, first: file.first, last: settled) {
                case .valid: break
                case .unknown: throw ChangeReadError.unknownCursor(cursor.text)
                case .expired: throw ChangeReadError.expiredCursor(cursor.text)
                }
            }
            if headOnly {
                return End(epoch: file.epoch, cursor: ChangeCursor(epoch: file.epoch, sequence: settled))
            }
            var through = since
            if since < settled, let last {
                reserve(Int(min(settled - since, 1 << 20)))
                let epoch = file.epoch
                through = try Self.records(of: file, after: since, through: settled, lastSequence: last.sequence) {
                    visit($0, epoch)
                }
            }
            return End(epoch: file.epoch, cursor: ChangeCursor(epoch: file.epoch, sequence: through))
        } catch let error as ChangeReadError {
            throw error
        } catch let error as ChangeLogProblem {
            throw .unreadable(error.message)
        } catch {
            throw .unreadable("\(error)")
        }
    }

    /// Visits the records `since + 1 ... settled` while `visit` says so, read forward from the first of them
    /// (`lastSequence`: the log's last record's); returns the last visited one's sequence number.
    private static func records(
        of file: ChangeLogFile, after since: UInt64, through settled: UInt64, lastSequence: UInt64,
        _ visit: (ChangeLine) -> Bool
    ) throws(ChangeLogProblem) -> UInt64 {
        var previous = since
        var bad = false
        try file.forEachLine(after: since, lastSequence: lastSequence) { bytes in
            guard let line = ChangeLine(bytes: bytes), line.sequence == previous + 1 else {
                bad = true
                return false
            }
            guard line.sequence <= settled else { return false }
            previous = line.sequence
            return visit(line)
        }
        if bad { throw .corrupt(file.path, "a line is not a change record, or its sequence number is out of order") }
        return previous
    }

    /// The log's descriptor; nil when the root has no log.
    private func openLog() throws(ChangeReadError) -> (SafeDirectory, Int32)? {
        do {
            guard FileManager.default.fileExists(atPath: root) else { return nil }  // nothing installed yet
            let rootFolder = try SafeDirectory.open(root)
            guard let state = try rootFolder.existingDirectory(VersionStore.stateName),
                let folder = try state.existingDirectory(ChangeLogFile.folderName),
                let (fd, _) = try folder.openRegularFile(ChangeLogFile.fileName)
            else { return nil }
            return (rootFolder, fd)
        } catch {
            throw .unreadable("\(error)")
        }
    }

    /// Whether `NAME.docset` no longer shows the record's `from` (its flip happened).
    private func isFlipped(_ record: ChangeRecord, in rootFolder: SafeDirectory) -> Bool {
        var buffer = [CChar](repeating: 0, count: 4097)
        let n = readlinkat(rootFolder.fd, VersionStore.linkName(record.docset), &buffer, 4096)
        let target = n < 0 ? nil : String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return VersionStore.version(linkTarget: target) != record.from?.folder
    }
}

/// Why the change log could not be read from a cursor.
package enum ChangeReadError: Error, Sendable, Equatable {
    /// The cursor was never handed out by this root's log (forged, another root's, or the log was made anew).
    case unknownCursor(String)
    /// Records after the cursor were dropped (`[changes] keep`).
    case expiredCursor(String)
    /// The log cannot be read (what, and the path).
    case unreadable(String)
}
