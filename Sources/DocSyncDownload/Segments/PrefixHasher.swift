import DocSyncSupport

/// Hashes a segmented download's contiguous durable prefix in order, on a thread of its own, while the segments
/// still arrive: the whole-file SHA-256 for the feed's check, and every full chunk read back against the digest taken
/// when it arrived. At the end only the tail is left to read, so the check costs no extra pass over the file.
///
/// `@unchecked Sendable`: the fields marked "guarded" are touched only while holding `lock`; the hasher state and
/// the buffer belong to the worker thread until `finish` has seen it stop.
final class PrefixHasher: @unchecked Sendable {
    private let staging: StagingFile
    private let chunkSize: Int64
    private let length: Int64
    private let lock = ConditionLock()

    // Guarded by `lock`.
    private var target: Int64 = 0
    private var digests: [Int64: [UInt8]] = [:]
    private var hashed: Int64 = 0
    private var stopping = false
    private var running = true
    private var problem: String?

    // Worker thread only.
    private var whole = SHA256()
    private var chunk = SHA256()

    init(staging: StagingFile, chunkSize: Int64, length: Int64) {
        self.staging = staging
        self.chunkSize = chunkSize
        self.length = length
        WorkerThread.start(name: "docsync-prefix-hash") { [self] in run() }
    }

    /// The durable prefix now reaches `end`; `digests` holds the digest of every full chunk below it.
    func advance(to end: Int64, digests: [Int64: [UInt8]]) {
        lock.withLock {
            guard end > target else { return }
            target = end
            self.digests = digests
            lock.broadcast()
        }
    }

    /// Waits until `length` bytes are hashed; the whole-file digest, or why the bytes on disk are not the ones
    /// received (nil digest).
    func finish(digests: [Int64: [UInt8]]) -> (digest: SHA256.Digest?, problem: String?) {
        advance(to: length, digests: digests)
        lock.withLock {
            while running, hashed < length, problem == nil { lock.wait() }
        }
        stop()
        return lock.withLock { problem == nil && hashed == length ? (whole.finalize(), nil) : (nil, problem) }
    }

    /// Stops the thread (idempotent); waits for it.
    func stop() {
        lock.withLock {
            stopping = true
            lock.broadcast()
            while running { lock.wait() }
        }
    }

    private func run() {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: TransferMemory.hashBlock, alignment: 16)
        defer { buffer.deallocate() }
        while let (from, to, expected) = nextJob() {
            let count = Int(to - from)
            let slice = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count])
            var failure: String?
            do throws(SystemError) {
                if try !staging.read(into: slice, at: from) { failure = "the file is shorter than \(to) bytes" }
            } catch {
                failure = "\(error)"
            }
            if failure == nil {
                whole.update(UnsafeRawBufferPointer(slice))
                chunk.update(UnsafeRawBufferPointer(slice))
                if let expected {  // `to` ends a chunk: compare with what arrived
                    if chunk.finalize().bytes != expected { failure = "the chunk ending at \(to) differs on disk" }
                    chunk = SHA256()
                }
            }
            lock.withLock {
                if let failure { problem = failure } else { hashed = to }
                lock.broadcast()
            }
        }
        lock.withLock {
            running = false
            lock.broadcast()
        }
    }

    /// The next piece to hash (at most `TransferMemory.hashBlock`, never across a chunk end) and, when it ends a
    /// chunk, that chunk's digest (which must exist). Nil when stopping or after a failure.
    private func nextJob() -> (Int64, Int64, [UInt8]?)? {
        lock.withLock {
            while hashed >= target, !stopping, problem == nil { lock.wait() }
            guard problem == nil, !stopping, hashed < target else { return nil }
            let chunkEnd = min((hashed / chunkSize + 1) * chunkSize, length)
            let end = min(hashed + Int64(TransferMemory.hashBlock), chunkEnd, target)
            guard end == chunkEnd else { return (hashed, end, nil) }
            guard let digest = digests[(end - 1) / chunkSize] else {
                problem = "no digest for the chunk ending at \(end)"
                lock.broadcast()
                return nil
            }
            return (hashed, end, digest)
        }
    }
}
