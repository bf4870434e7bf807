import DocSyncSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An archive that is still being downloaded: reads a partial file with `pread`, never past the byte count the
/// downloader has made durable, waiting (on a condition variable) for more. The download side reports every
/// durable commit with `commit(_:)` and its end with `finish(length:sourceURL:)` (complete and verified) or
/// `fail(_:)`. A commit that goes backwards (the downloader truncated the file because the server's bytes changed)
/// starts a new generation: the extraction reading the old one fails, and `restartPending` tells the caller to
/// install again from byte 0 with `rewind()`.
///
/// The tarix layout's walk reads it at offsets instead (`ByteSource`'s `readAt`), with the same waits and failures.
///
/// The downloader writes with `O_DIRECT`, so the durable bytes are not in the page cache: each read asks the kernel to
/// read the next durable bytes ahead (`POSIX_FADV_WILLNEED`, up to `readAheadBytes`) while the extraction works on
/// these, so its next `pread` finds them cached instead of waiting for the disk.
///
/// `@unchecked Sendable` is sound: the stored `var`s are read and written only while `condition` is locked, except
/// `fd`, `offset`, `walked`, `prefetched` and `lastProgress` belong to the one reader thread of the current install
/// (`rewind()` touches them under the lock between installs, before the next reader thread starts).
package final class GrowingFileSource: ArchiveSource, ByteSource, @unchecked Sendable {
    /// Why reading stopped.
    package enum Failure: Error, Sendable, Equatable {
        /// The partial file was truncated: extraction must restart from byte 0.
        case restarted
        /// The download failed (its own error is reported by the download side).
        case downloadFailed(String)
        /// The install side gave up (`cancel()`).
        case cancelled
    }

    package let partPath: String
    package let finalPath: String
    /// How far past a read the durable bytes are read ahead (two of the extractor's 1 MiB reads).
    static let readAheadBytes: Int64 = 2 << 20

    /// `finalPath`: where the verified download is once ``awaitVerifiedEnd()`` returned.
    package var completedFile: String? { finalPath }
    private let condition = ConditionLock()
    private var committed: Int64 = 0
    private var generation = 0
    private var finished: (length: Int64, url: String?)?
    private var finishedSHA256: String?
    private var failure: Failure?
    private var readerGeneration = 0
    private var offset: Int64 = 0
    private var walked: Int64 = 0  // the end of the furthest `readAt` (the reader thread's, as `offset`)
    private var prefetched: Int64 = 0  // the end of the last read-ahead asked for (the reader thread's)
    private var handedOut: Int64 = 0  // `offset` as other threads may read it
    private var fd: Int32 = -1
    private let progress: (@Sendable (Int64, Int64?) -> Void)?
    private var lastProgress = ContinuousClock.now - .seconds(1)  // the first read reports

    /// `partPath` is where the downloader appends; `finalPath` where it moves the verified file. `progress` gets the
    /// archive bytes handed to the extractor so far (and the total once known), at most every 0.25 s, on the
    /// reader thread.
    package init(partPath: String, finalPath: String, progress: (@Sendable (Int64, Int64?) -> Void)? = nil) {
        self.partPath = partPath
        self.finalPath = finalPath
        self.progress = progress
    }

    deinit { if fd >= 0 { close(fd) } }

    package var displayName: String { partPath }

    /// Known once the download has finished.
    package var byteCount: Int64? { locked { finished?.length } }

    package func seek(to offset: Int64, whence: Int32) -> Int64? { nil }

    /// The mirror the verified bytes came from, once finished.
    package var verifiedURL: String? { locked { finished?.url } }
    /// The downloader hashes every byte it verifies: the extraction does not hash them again.
    package var providesSHA256: Bool { true }
    package var verifiedSHA256: String? { locked { finishedSHA256 } }

    /// True when the last extraction stopped because the partial file was truncated.
    package var restartPending: Bool { locked { failure == nil && readerGeneration != generation } }

    /// The failure that stopped reading, if any.
    package var stopReason: Failure? {
        locked { failure ?? (readerGeneration != generation ? .restarted : nil) }
    }

    // MARK: Download side (any thread)

    /// The downloader made `count` bytes durable. Less than before: the file was truncated (a new generation).
    package func commit(_ count: Int64) {
        condition.lock()
        if count < committed { generation += 1 }
        committed = count
        condition.broadcast()
        condition.unlock()
    }

    /// The download is complete and verified: `length` bytes, from `sourceURL`, whose SHA-256 is `sha256`.
    package func finish(length: Int64, sourceURL: String?, sha256: String?) {
        condition.lock()
        finishedSHA256 = sha256
        if length < committed { generation += 1 }
        committed = length
        finished = (length, sourceURL)
        condition.broadcast()
        condition.unlock()
    }

    /// The download failed: the extraction stops.
    package func fail(_ reason: String) { stop(.downloadFailed(reason)) }

    /// The install side gave up: wakes and stops a blocked reader.
    package func cancel() { stop(.cancelled) }

    private func stop(_ reason: Failure) {
        condition.lock()
        if failure == nil { failure = reason }
        condition.broadcast()
        condition.unlock()
    }

    // MARK: Install side (the reader thread)

    /// Starts reading again from byte 0 of the current generation (the next install after a restart).
    package func rewind() {
        condition.lock()
        readerGeneration = generation
        offset = 0
        walked = 0
        prefetched = 0
        handedOut = 0
        if fd >= 0 {
            close(fd)
            fd = -1
        }
        condition.unlock()
    }

    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        let n = try readAt(offset, into: buffer)
        offset += Int64(n)
        return n
    }

    /// `ByteSource`: the bytes at `at` of the current generation, waiting for them as `read(into:)` does (the
    /// tarix store's walk reads the archive through here while it downloads). Does not move `read`'s position.
    package func readAt(offset at: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        let n = try readAt(at, into: buffer)
        walked = max(walked, at + Int64(n))
        return n
    }

    /// The partial file's name, for messages.
    package var sourceName: String { partPath }

    private func readAt(_ at: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        // Wait until there is something durable to read, the download is done, or reading must stop.
        condition.lock()
        while failure == nil && readerGeneration == generation && committed <= at && finished == nil {
            condition.wait()
        }
        if let failure {
            condition.unlock()
            throw error(failure)
        }
        if readerGeneration != generation {
            condition.unlock()
            throw error(.restarted)
        }
        let available = committed - at
        let mine = readerGeneration
        // Known before the file is opened: a zero read after `finish` is bytes missing from the verified file; one
        // before it may be the `.part` just renamed into `complete/` (`finish` comes after the rename).
        let finishedBefore = finished != nil
        condition.unlock()
        if available <= 0 { return 0 }  // finished, and everything was read

        let want = Int(min(Int64(buffer.count), available))
        let n = try pread(at, into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<want]))
        // A truncation may have raced with the read: bytes read then belong to no generation we can trust.
        let stale = locked { generation != mine }
        if stale { throw error(.restarted) }
        if n == 0 {
            // Durable bytes that are not there: either the downloader just renamed the verified file to its final
            // path (reopen it once `finish` arrives), or the file is being replaced (wait for the new generation).
            condition.lock()
            while failure == nil && generation == mine && finished == nil { condition.wait() }
            let reopen = failure == nil && generation == mine && !finishedBefore
            if reopen, fd >= 0 {
                close(fd)
                fd = -1
            }
            condition.unlock()
            if reopen { return try readAt(at, into: buffer) }
            if failure == nil && generation == mine { throw SystemError("read", path: partPath, code: EIO) }
            throw error(locked { failure } ?? .restarted)
        }
        let total = at + Int64(n)
        readAhead(from: total, durable: at + available)
        locked { handedOut = max(handedOut, total) }
        report(total)
        return n
    }

    /// Asks the kernel to read the durable bytes after `start` into the page cache (up to `readAheadBytes` past it,
    /// never past `durable`, each byte once).
    private func readAhead(from start: Int64, durable: Int64) {
        let end = min(durable, start + Self.readAheadBytes)
        let from = max(start, prefetched)
        guard fd >= 0, end > from else { return }
        _ = posix_fadvise(fd, off_t(from), off_t(end - from), POSIX_FADV_WILLNEED)
        prefetched = end
    }

    /// Archive bytes handed to the extractor so far (in the current generation), readable from any thread.
    package var bytesRead: Int64 { locked { handedOut } }

    /// Called by the installer after the archive's end, before publishing: waits until the download is complete and
    /// verified, and fails if reading is no longer valid.
    package func awaitVerifiedEnd() throws(SystemError) {
        condition.lock()
        while failure == nil && readerGeneration == generation && finished == nil { condition.wait() }
        let problem = failure ?? (readerGeneration != generation ? .restarted : nil)
        // Read to the end by `read(into:)` (libarchive) or by `readAt` (the tarix store's walk).
        let consumedAll = finished.map { offset == $0.length || walked == $0.length } ?? false
        condition.unlock()
        if let problem { throw error(problem) }
        // libarchive stopped before the end of the verified file (trailing bytes are read by the digest pass, so
        // this means the extraction and the download disagree about the archive).
        if !consumedAll { throw SystemError("read", path: partPath, code: EIO) }
        progress?(max(offset, walked), max(offset, walked))
    }

    private func pread(_ at: Int64, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        if fd < 0 {
            prefetched = 0
            fd = open(partPath, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
            // Finished: the downloader may have renamed the part file already (same bytes, verified).
            if fd < 0 && errno == ENOENT && locked({ finished != nil }) {
                fd = open(finalPath, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
            }
            if fd < 0 {
                if errno == ENOENT { return 0 }  // recreated by the downloader: the generation will move
                throw SystemError("open", path: partPath)
            }
        }
        while true {
            let n = Glibc.pread(fd, buffer.baseAddress, buffer.count, off_t(at))
            if n >= 0 { return n }
            if errno != EINTR { throw SystemError("pread", path: partPath) }
        }
    }

    private func report(_ position: Int64) {
        guard let progress else { return }
        let now = ContinuousClock.now
        guard now - lastProgress >= .milliseconds(250) else { return }
        lastProgress = now
        progress(position, byteCount)
    }

    private func error(_ failure: Failure) -> SystemError {
        let code: Int32 =
            switch failure {
            case .restarted: ERESTART
            case .downloadFailed: EIO
            case .cancelled: ECANCELED
            }
        return SystemError("read (streaming download)", path: partPath, code: code)
    }

    private func locked<T>(_ body: () -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }
}
