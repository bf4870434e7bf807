import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `<staging>/<name>.part`, its journal and its lock: every durable step of a partial download.
///
/// Write order (checklist A2): pwrite → fdatasync(part) → journal.tmp → fsync → rename → fsync(dir), so the
/// journal never vouches for bytes that are not on disk. Used by one thread at a time.
final class StagingFile {
    let directory: String
    let partPath: String
    let journalPath: String
    private let temporaryJournalPath: String
    private let lockPath: String
    private let lockFD: Int32
    private(set) var fd: Int32 = -1
    /// The partial opened with `O_DIRECT` for the data path, or -1 (not wanted, or unsupported by the file system).
    private(set) var directFD: Int32 = -1
    /// Offset, length and buffer alignment of writes through `directFD`.
    private(set) var alignment = 4096
    private let wantsDirectIO: Bool

    /// Creates the directory if needed and takes the exclusive lock (A9); fails at once if it is held.
    init(directory: String, name: String, directIO: Bool = true) throws(DownloadError) {
        self.directory = directory
        wantsDirectIO = directIO
        partPath = "\(directory)/\(name).part"
        journalPath = "\(directory)/\(name).journal"
        temporaryJournalPath = "\(directory)/\(name).journal.tmp"
        lockPath = "\(directory)/\(name).lock"
        if mkdir(directory, 0o755) != 0, errno != EEXIST { throw .disk(SystemError("mkdir", path: directory)) }
        lockFD = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        if lockFD < 0 { throw .disk(SystemError("open", path: lockPath)) }
        // A lock that is only briefly held (a process just exiting, or a fork of ours about to exec, which shares
        // the descriptor until then) is waited for up to a second before the partial counts as someone else's.
        var code = flock(lockFD, LOCK_EX | LOCK_NB) == 0 ? 0 : errno
        for _ in 0..<20 where code == EWOULDBLOCK {
            usleep(50_000)
            code = flock(lockFD, LOCK_EX | LOCK_NB) == 0 ? 0 : errno
        }
        if code != 0 {
            close(lockFD)
            if code == EWOULDBLOCK {
                throw DownloadError(
                    .locked, reason: "another process is downloading into \(partPath)", isTransient: true)
            }
            throw .disk(SystemError("flock", path: lockPath, code: code))
        }
    }

    private var released = false

    deinit { release() }

    /// Closes the partial and releases the lock now (rather than whenever the last reference goes away).
    func release() {
        guard !released else { return }
        released = true
        closePart()
        close(lockFD)  // releases the flock
    }

    /// Opens (creating if needed) the partial file, and a second descriptor with `O_DIRECT` when wanted and the
    /// file system supports it (EINVAL: buffered writes only).
    func openPart() throws(SystemError) {
        if fd >= 0 { return }
        fd = open(partPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        if fd < 0 { throw SystemError("open", path: partPath) }
        guard wantsDirectIO else { return }
        guard let direct = try LinuxFS.openDirect(partPath, flags: O_WRONLY | O_CLOEXEC) else { return }
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

    var partExists: Bool { access(partPath, F_OK) == 0 }

    func size() throws(SystemError) -> Int64 {
        var st = stat()
        if fstat(fd, &st) != 0 { throw SystemError("fstat", path: partPath) }
        return Int64(st.st_size)
    }

    func readJournal() -> Journal? {
        let jfd = open(journalPath, O_RDONLY | O_CLOEXEC)
        if jfd < 0 { return nil }
        defer { close(jfd) }
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(jfd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            data.append(contentsOf: buffer[0..<n])
            if data.count > 64 << 20 { return nil }
        }
        return Journal(decoding: data)
    }

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
        if ftruncate(fd, off_t(length)) != 0 { throw SystemError("ftruncate", path: partPath) }
        try commit(journal)
    }

    private func writeJournal(_ journal: Journal) throws(SystemError) {
        let data = journal.encoded()
        let jfd = open(temporaryJournalPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if jfd < 0 { throw SystemError("open", path: temporaryJournalPath) }
        var failure: SystemError?
        data.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n = Glibc.write(jfd, raw.baseAddress! + done, raw.count - done)
                if n < 0, errno == EINTR { continue }
                if n <= 0 {
                    failure = SystemError("write", path: temporaryJournalPath)
                    return
                }
                done += n
            }
        }
        if failure == nil, fsync(jfd) != 0 { failure = SystemError("fsync", path: temporaryJournalPath) }
        close(jfd)
        if let failure { throw failure }
        try LinuxFS.rename(from: temporaryJournalPath, to: journalPath)
        try LinuxFS.syncDirectory(directory)
    }

    /// Removes the partial and its journal (a fresh start, or a verified failure).
    func discard() throws(SystemError) {
        closePart()
        for path in [journalPath, temporaryJournalPath, partPath] where unlink(path) != 0 && errno != ENOENT {
            throw SystemError("unlink", path: path)
        }
        try LinuxFS.syncDirectory(directory)
    }

    /// Moves the verified partial to `destination` (A13): fsync, rename, fsync both directories, drop the journal.
    func finalize(to destination: String) throws(SystemError) {
        if fsync(fd) != 0 { throw SystemError("fsync", path: partPath) }
        try LinuxFS.rename(from: partPath, to: destination)
        try LinuxFS.syncDirectory(Self.parent(of: destination))
        closePart()
        for path in [journalPath, temporaryJournalPath] where unlink(path) != 0 && errno != ENOENT {
            throw SystemError("unlink", path: path)
        }
        try LinuxFS.syncDirectory(directory)
    }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
