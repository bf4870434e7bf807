import DocSyncSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Appends to a root's change log under the root's lock (`VersionStore`), as part of the flip each record describes.
///
/// The rule that keeps the log and the links in step: a record is appended (and made durable: by the `syncfs` of the
/// install, or `fdatasync` here) before the flip, and a record whose flip did not happen is the log's last — only one
/// change is made at a time, under the lock. So after a SIGKILL or power cut at any moment, only the last record can
/// be unflipped; "flipped" means `NAME.docset` no longer shows the record's `from` (a version folder name is never
/// reused, so it cannot show it again). `recover` drops an unflipped last record before any new change, and readers
/// (`ChangeLogReader`) never report a last record that is not flipped — nor anything after it.
final class ChangeLogWriter {
    let folder: SafeDirectory
    private let fd: Int32
    private var file: ChangeLogFile
    private var lastSequence: UInt64
    /// Where the record appended last starts, until it is known flipped or rolled back.
    private var pendingStart: Int64?

    /// Opens the log in `state/changes/` (made, with an empty log, when missing).
    init(state: SafeDirectory) throws(ChangeLogProblem) {
        do {
            folder = try state.directory(ChangeLogFile.folderName, create: true)
            if !folder.exists(ChangeLogFile.fileName) {
                let header = ChangeLogFile.header(epoch: ChangeLogFile.newEpoch(), first: 1)
                try folder.writeFileAtomically(ChangeLogFile.fileName, Array(header.utf8))
            }
            fd = try folder.openFile(ChangeLogFile.fileName, O_RDWR)
        } catch {
            throw .io(error)
        }
        do {
            file = try ChangeLogFile(fd: fd, path: folder.childPath(ChangeLogFile.fileName))
            lastSequence = try file.lastRecord()?.record.sequence ?? (file.first - 1)
        } catch {
            close(fd)
            throw error
        }
    }

    deinit { close(fd) }

    var epoch: String { file.epoch }

    /// Under the lock, before any change: drops a torn last line and an unflipped last record.
    func recover(isFlipped: (ChangeRecord) -> Bool) throws(ChangeLogProblem) {
        var end = file.completeEnd
        if let (record, offset) = try file.lastRecord(), !isFlipped(record) { end = offset }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw .io(SystemError("fstat", path: file.path)) }
        guard end < Int64(st.st_size) else { return }
        try truncate(to: end)
        lastSequence = try file.lastRecord()?.record.sequence ?? (file.first - 1)
    }

    /// Appends `record` with the next sequence number (durable with the caller's `syncfs`, or `makeDurable()`).
    @discardableResult
    func append(_ record: ChangeRecord) throws(ChangeLogProblem) -> ChangeRecord {
        var record = record
        record.sequence = lastSequence + 1
        let start = file.completeEnd
        let bytes = Array(record.line.utf8)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes {
                pwrite(fd, $0.baseAddress! + done, bytes.count - done, off_t(start) + off_t(done))
            }
            if n < 0 && errno == EINTR { continue }
            if n < 0 {
                let error = SystemError("pwrite", path: file.path)
                _ = ftruncate(fd, off_t(start))
                throw .io(error)
            }
            done += n
        }
        pendingStart = start
        lastSequence = record.sequence
        try reread()
        return record
    }

    /// `fdatasync` of the log (when no `syncfs` follows the append).
    func makeDurable() throws(ChangeLogProblem) {
        if fdatasync(fd) != 0 { throw .io(SystemError("fdatasync", path: file.path)) }
    }

    /// Takes back the record appended last: its flip will not happen.
    func rollback() {
        guard let start = pendingStart else { return }
        pendingStart = nil
        try? truncate(to: start)
        lastSequence = (try? file.lastRecord()?.record.sequence) ?? (file.first - 1)
    }

    /// The record appended last is flipped: it stays.
    func settle() { pendingStart = nil }

    /// Drops records older than `keep` (`[changes] keep`): writes the records kept to a new file and renames it over
    /// the log (readers open the log by name for each read). Returns the version folders the kept records name.
    func trim(keep: Duration, now: Date = Date()) throws(ChangeLogProblem) -> Set<String>? {
        let cutoff = Int64((now.timeIntervalSince1970 - Double(keep.components.seconds)) * 1000)
        guard let oldest = try file.firstRecord(), oldest.at < cutoff else { return nil }
        var kept: [Substring] = []
        var named = Set<String>()
        try file.scanBackward { line, _ in
            guard let record = ChangeRecord(line: line), record.at >= cutoff else { return false }
            kept.append(line)
            if let from = record.from { named.insert(from.folder) }
            if let to = record.to { named.insert(to.folder) }
            return true
        }
        let first = kept.last.flatMap { ChangeRecord(line: $0)?.sequence } ?? (lastSequence + 1)
        var text = ChangeLogFile.header(epoch: file.epoch, first: first)
        for line in kept.reversed() { text += line + "\n" }
        do throws(SystemError) {
            try folder.writeFileAtomically(ChangeLogFile.fileName, Array(text.utf8))
            let reopened = try folder.openFile(ChangeLogFile.fileName, O_RDWR)
            if dup2(reopened, fd) < 0 { throw SystemError("dup2", path: file.path) }
            close(reopened)
        } catch {
            throw .io(error)
        }
        try reread()
        return named
    }

    private func truncate(to end: Int64) throws(ChangeLogProblem) {
        if ftruncate(fd, off_t(end)) != 0 { throw .io(SystemError("ftruncate", path: file.path)) }
        if fdatasync(fd) != 0 { throw .io(SystemError("fdatasync", path: file.path)) }
        try reread()
    }

    private func reread() throws(ChangeLogProblem) {
        file = try ChangeLogFile(fd: fd, path: file.path)
    }
}
