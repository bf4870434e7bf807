import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `<staging>/<name>.part`, its journal and its lock: every durable step of a partial download.
///
/// Write order (checklist A2): pwrite → fdatasync(part) → journal.tmp → fsync → rename → fsync(dir), so the
/// journal never vouches for bytes that are not on disk. Used by one thread at a time.
///
/// Every file is reached through the staging folder's descriptor with `O_NOFOLLOW` (`SafeDirectory`): a planted
/// symlink at any of them is an error naming it, never written through. The partial and its journal are created
/// only once a response was accepted; a lock file with nothing beside it is removed on release, so refused
/// requests (a feed full of 404s) leave nothing behind.
final class StagingFile {
    let folder: SafeDirectory
    var directory: String { folder.path }
    let partName: String
    let journalName: String
    private let temporaryJournalName: String
    private let lockName: String
    var partPath: String { folder.childPath(partName) }
    var journalPath: String { folder.childPath(journalName) }
    private let lockFD: Int32
    private(set) var fd: Int32 = -1
    /// The partial opened with `O_DIRECT` for the data path, or -1 (not wanted, or unsupported by the file system).
    private(set) var directFD: Int32 = -1
    /// Offset, length and buffer alignment of writes through `directFD`.
    private(set) var alignment = 4096
    private let wantsDirectIO: Bool

    /// Creates the directory if needed and takes the exclusive lock (A9); fails at once if it is held.
    init(directory: String, name: String, directIO: Bool = true) throws(DownloadError) {
        wantsDirectIO = directIO
        partName = "\(name).part"
        journalName = "\(name).journal"
        temporaryJournalName = "\(name).journal.tmp"
        lockName = "\(name).lock"
        do throws(SystemError) { folder = try SafeDirectory.open(directory, create: true) } catch { throw .disk(error) }
        lockFD = try Self.lock(lockName, in: folder)
    }

    /// Opens and flocks `name`. A lock file may be unlinked by a releasing holder (nothing left beside it): the lock
    /// counts only when the locked inode is still the one at `name`, else it is taken again.
    private static func lock(_ name: String, in folder: SafeDirectory) throws(DownloadError) -> Int32 {
        while true {
            let fd: Int32
            do throws(SystemError) { fd = try folder.openFile(name, O_RDWR | O_CREAT) } catch { throw .disk(error) }
            // A lock that is only briefly held (a process just exiting, or a fork of ours about to exec, which shares
            // the descriptor until then) is waited for up to a second before the partial counts as someone else's.
            var code = flock(fd, LOCK_EX | LOCK_NB) == 0 ? 0 : errno
            for _ in 0..<20 where code == EWOULDBLOCK {
                usleep(50_000)
                code = flock(fd, LOCK_EX | LOCK_NB) == 0 ? 0 : errno
            }
            if code != 0 {
                close(fd)
                if code == EWOULDBLOCK {
                    throw DownloadError(
                        .locked, reason: "another process is downloading into \(folder.childPath(name))",
                        isTransient: true)
                }
                throw .disk(SystemError("flock", path: folder.childPath(name), code: code))
            }
            var held = stat()
            if fstat(fd, &held) == 0, let current = folder.status(name), current.st_ino == held.st_ino,
                current.st_dev == held.st_dev
            {
                return fd
            }
            close(fd)
        }
    }

    private var released = false

    deinit { release() }

    /// Closes the partial and releases the lock now (rather than whenever the last reference goes away).
    func release() {
        guard !released else { return }
        released = true
        closePart()
        if !folder.exists(partName), !folder.exists(journalName), !folder.exists(temporaryJournalName) {
            _ = unlinkat(folder.fd, lockName, 0)  // nothing to protect: leave no empty lock behind
        }
        _ = flock(lockFD, LOCK_UN)  // not only the close: a child being spawned shares the descriptor until exec
        close(lockFD)
    }

    /// Opens (creating if needed) the partial file, and a second descriptor with `O_DIRECT` when wanted and the
    /// file system supports it (EINVAL: buffered writes only).
    func openPart() throws(SystemError) {
        if fd >= 0 { return }
        fd = try folder.openFile(partName, O_RDWR | O_CREAT)
        guard wantsDirectIO else { return }
        guard let direct = try folder.openDirect(partName, O_WRONLY) else { return }
        directFD = direct
        alignment = max(4096, LinuxFS.directIOAlignment(direct) ?? 4096)
    }

    private func closePart() {
        if fd >= 0 { close(fd) }
        if directFD >= 0 { close(directFD) }
        fd = -1
        directFD = -1
    }

    /// True when `buffer` can go to `offset` through `O_DIRECT`: offset, length and address all aligned.
    func isDirect(_ buffer: UnsafeRawBufferPointer, at offset: Int64) -> Bool {
        directFD >= 0 && offset % Int64(alignment) == 0 && buffer.count % alignment == 0
            && Int(bitPattern: buffer.baseAddress) % alignment == 0
    }

    /// True when something is at the partial's name (a symlink there fails `openPart`).
    var partExists: Bool { folder.exists(partName) }

    /// True when something is at the journal's name or its temporary one.
    var journalExists: Bool { folder.exists(journalName) || folder.exists(temporaryJournalName) }

    /// Throws when the journal's name is a symlink (it is never read or replaced as if it were docsync's).
    func checkJournalIsOurs() throws(SystemError) {
        for name in [journalName, temporaryJournalName, partName] where folder.isSymlink(name) {
            throw .symlink(folder.childPath(name))
        }
    }

    func size() throws(SystemError) -> Int64 {
        try openPart()
        var st = stat()
        if fstat(fd, &st) != 0 { throw SystemError("fstat", path: partPath) }
        return Int64(st.st_size)
    }

    /// The journal, or nil when it is missing, unreadable, a symlink or corrupt.
    func readJournal() -> Journal? { readJournalBytes().flatMap { Journal(decoding: $0) } }

    /// The journal file's bytes, whatever its version; nil when missing, unreadable, a symlink or too large.
    func readJournalBytes() -> [UInt8]? { try? folder.readFile(journalName, limit: 64 << 20) }

    /// Writes all of `buffer` at `offset` (never O_APPEND: a stale position cannot misplace data, E50); through
    /// `O_DIRECT` when `isDirect` allows (the buffer must then be aligned too), else through the page cache.
    func write(_ buffer: UnsafeRawBufferPointer, at offset: Int64) throws(SystemError) {
        var done = 0
        while done < buffer.count {
            let rest = UnsafeRawBufferPointer(rebasing: buffer[done...])
            let target = isDirect(rest, at: offset + Int64(done)) ? directFD : fd
            let n = pwrite(target, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
            if n < 0 {
                if errno == EINTR { continue }
                throw SystemError("pwrite", path: partPath)
            }
            done += n
        }
    }

    /// Writes `buffers` back to back from `offset`: one `pwritev` through `O_DIRECT` when every piece is aligned,
    /// else (and for whatever a short `pwritev` left) piece by piece with `write(_:at:)`.
    func write(_ buffers: [UnsafeRawBufferPointer], at offset: Int64) throws(SystemError) {
        var done = 0
        let direct = buffers.allSatisfy { isDirect($0, at: offset) }  // aligned lengths keep every offset aligned
        if direct, buffers.count > 1 {
            let vectors = buffers.map {
                iovec(iov_base: UnsafeMutableRawPointer(mutating: $0.baseAddress), iov_len: $0.count)
            }
            var n = -1
            repeat {
                n = vectors.withUnsafeBufferPointer {
                    pwritev(directFD, $0.baseAddress, Int32($0.count), off_t(offset))
                }
            } while n < 0 && errno == EINTR
            if n < 0 { throw SystemError("pwritev", path: partPath) }
            done = n
        }
        var position = offset
        for buffer in buffers {
            let skip = min(done, buffer.count)
            done -= skip
            if skip < buffer.count {
                try write(UnsafeRawBufferPointer(rebasing: buffer[skip...]), at: position + Int64(skip))
            }
            position += Int64(buffer.count)
        }
    }

    /// Reads exactly `buffer.count` bytes at `offset`; false on a short file.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(SystemError) -> Bool {
        var done = 0
        while done < buffer.count {
            let n = pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
            if n < 0 {
                if errno == EINTR { continue }
                throw SystemError("pread", path: partPath)
            }
            if n == 0 { return false }
            done += n
        }
        return true
    }

    /// Makes the data durable, then the journal that vouches for it.
    func commit(_ journal: Journal) throws(SystemError) {
        if fdatasync(fd) != 0 { throw SystemError("fdatasync", path: partPath) }
        try writeJournal(journal)
    }

    /// Truncates the partial durably (A3, C24), then records `journal`.
    func truncate(to length: Int64, journal: Journal) throws(SystemError) {
        try openPart()
        if ftruncate(fd, off_t(length)) != 0 { throw SystemError("ftruncate", path: partPath) }
        try commit(journal)
    }

    /// Makes the data durable, then `encoded` as the journal (a segmented download's version-2 record).
    func commit(encoded: [UInt8]) throws(SystemError) {
        if fdatasync(fd) != 0 { throw SystemError("fdatasync", path: partPath) }
        try writeJournal(encoded: encoded)
    }

    /// Truncates the partial durably, then records `encoded` (a segmented download's fresh start).
    func truncate(to length: Int64, encoded: [UInt8]) throws(SystemError) {
        try openPart()
        if ftruncate(fd, off_t(length)) != 0 { throw SystemError("ftruncate", path: partPath) }
        try commit(encoded: encoded)
    }

    private func writeJournal(_ journal: Journal) throws(SystemError) { try writeJournal(encoded: journal.encoded()) }

    private func writeJournal(encoded data: [UInt8]) throws(SystemError) {
        let jfd = try folder.openFile(temporaryJournalName, O_WRONLY | O_CREAT | O_TRUNC)
        var failure: SystemError?
        do { try LinuxFS.writeAll(jfd, data, path: folder.childPath(temporaryJournalName)) } catch { failure = error }
        if failure == nil, fsync(jfd) != 0 {
            failure = SystemError("fsync", path: folder.childPath(temporaryJournalName))
        }
        close(jfd)
        if let failure { throw failure }
        try folder.rename(temporaryJournalName, to: folder, as: journalName)
        try folder.sync()
    }

    /// Removes the partial and its journal (a fresh start, or a verified failure).
    func discard() throws(SystemError) {
        closePart()
        for name in [journalName, temporaryJournalName, partName] { try folder.unlink(name) }
        try folder.sync()
    }

    /// Moves the verified partial to `destination` (A13): fsync, rename, fsync the destination's directory, drop
    /// the journal. The journal's removal is not synced: a crash that loses it leaves the journal of a complete
    /// download beside its destination, which the next run recognises (I66). A destination folder inside the
    /// staging folder (`complete/`) is created and reached without following links.
    func finalize(to destination: String) throws(SystemError) {
        if fsync(fd) != 0 { throw SystemError("fsync", path: partPath) }
        let parent = Self.parent(of: destination)
        let target =
            parent == folder.path
            ? folder : try SafeDirectory.open(parent, below: folder, create: parent.hasPrefix(folder.path + "/"))
        let name =
            destination.lastIndex(of: "/").map { String(destination[destination.index(after: $0)...]) }
            ?? destination
        try folder.rename(partName, to: target, as: name)
        try target.sync()
        closePart()
        for name in [journalName, temporaryJournalName] { try folder.unlink(name) }
    }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
