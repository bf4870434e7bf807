import DocSyncSupport
import Foundation

/// Hashes what the transfer thread wrote — read back from the page cache, so the digest covers the bytes that are
/// really in the file — and hands a journal to the `CommitQueue` at every chunk boundary (and every
/// `commitInterval` seconds). Receiving, hashing and syncing thus overlap on three threads. The transfer thread is
/// held back when it runs more than one chunk ahead, which bounds both memory and the bytes a kill can lose.
///
/// `@unchecked Sendable`: the fields marked "guarded" are touched only while holding `condition`; the others only
/// on the worker thread after `init`. `staging` is used here only for `pread` (and by the queue for syncing) while
/// the transfer thread calls `pwrite` on the same descriptor, which is safe.
final class HashWorker: @unchecked Sendable {
    private let condition = NSCondition()
    private let staging: StagingFile
    private let queue: CommitQueue
    private let commitInterval: Double
    private let maxAhead: Int64

    // Guarded by `condition`.
    private var written: Int64
    private var hashed: Int64
    private var closing = false
    private var finished = false
    private var failure: SystemError?
    private var result: Journal

    // Worker thread only.
    private var latest: Journal
    private var hasher: SHA256

    init(staging: StagingFile, durable: Journal, commitInterval: Double, callback: (@Sendable (Int64) -> Void)?) {
        self.staging = staging
        self.commitInterval = commitInterval
        maxAhead = durable.chunkSize
        written = durable.committed
        hashed = durable.committed
        result = durable
        latest = durable
        hasher = SHA256(savedState: durable.hashState) ?? SHA256()
        queue = CommitQueue(staging: staging, durable: durable, callback: callback)
        let thread = Thread { [self] in run() }
        thread.name = "docsync-hash"
        thread.stackSize = 256 << 10
        thread.start()
    }

    /// Tells the worker that bytes up to `end` are in the file; waits while the worker is a chunk behind.
    /// Returns a hashing or commit failure, after which the transfer must stop.
    func advance(to end: Int64) -> SystemError? {
        condition.lock()
        defer { condition.unlock() }
        written = end
        condition.broadcast()
        while written - hashed > maxAhead, failure == nil, !finished { condition.wait() }
        return failure
    }

    /// Hashes and commits everything written, stops both threads, and returns the durable journal.
    func close() -> (journal: Journal, failure: SystemError?) {
        condition.lock()
        defer { condition.unlock() }
        closing = true
        condition.broadcast()
        while !finished { condition.wait() }
        return (result, failure)
    }

    private func run() {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 64)
        defer { buffer.deallocate() }
        var lastCommit = ProgressMeter.now()
        var problem: SystemError?
        while problem == nil {
            condition.lock()
            while hashed == written, !closing { condition.wait() }
            let (start, target) = (hashed, written)
            condition.unlock()
            if start == target { break }  // closing, and everything is hashed
            let chunk = latest.chunkSize
            let boundary = (start / chunk + 1) * chunk
            let count = Int(min(Int64(buffer.count), target - start, boundary - start))
            let slice = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count])
            do throws(SystemError) {
                guard try staging.read(into: slice, at: start) else {
                    throw SystemError("pread", path: staging.partPath, code: EIO)
                }
            } catch {
                problem = error
                break
            }
            hasher.update(UnsafeRawBufferPointer(slice))
            let end = start + Int64(count)
            // Start writeback now so the commit's fdatasync mostly waits for I/O already under way (best effort).
            try? LinuxFS.startWriteback(staging.fd, offset: start, length: Int64(count), path: staging.partPath)
            if end == boundary {
                problem = commit(at: end, checkpoint: true, wait: true)
                lastCommit = ProgressMeter.now()
            } else if ProgressMeter.now() - lastCommit >= commitInterval {
                problem = commit(at: end, checkpoint: false, wait: false)
                if latest.committed == end { lastCommit = ProgressMeter.now() }
            }
            condition.lock()
            hashed = end
            if let problem { failure = problem }
            condition.broadcast()
            condition.unlock()
        }
        if problem == nil, latest.committed < hashedValue() {
            problem = commit(at: hashedValue(), checkpoint: false, wait: true)
        }
        let (durable, queueFailure) = queue.close()
        condition.lock()
        result = durable
        failure = failure ?? problem ?? queueFailure
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    private func hashedValue() -> Int64 {
        condition.lock()
        defer { condition.unlock() }
        return hashed
    }

    /// Hands the state at `end` to the queue; a time-based commit (`wait` false) is skipped while one is in flight.
    private func commit(at end: Int64, checkpoint: Bool, wait: Bool) -> SystemError? {
        var next = latest
        next.committed = end
        next.hashState = hasher.savedState
        if checkpoint { next.checkpoints.append(Journal.Checkpoint(offset: end, state: next.hashState)) }
        if wait {
            if let error = queue.submit(next) { return error }
            latest = next
            return nil
        }
        let (accepted, error) = queue.offer(next)
        if accepted { latest = next }
        return error
    }
}
