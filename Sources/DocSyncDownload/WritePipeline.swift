import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The data path of one accepted response, on three threads. The transfer thread copies received bytes into a few
/// aligned blocks (`append`); a hash thread folds each block into the SHA-256 and notes the state at its end; a
/// writer thread writes it at its offset — with `O_DIRECT` where the file system allows, so bytes go from the block
/// to the device without a page-cache copy or a write-back to wait for later — and posts the journal to the
/// `CommitQueue` at every chunk boundary and every `commitInterval`. The digest covers exactly the bytes written.
///
/// Blocks end at chunk boundaries, so every checkpoint is a block end. Bounds: the transfer waits for a free block
/// (memory: `blockCount` × `blockSize`), and the writer waits while more than `maxUnsynced` bytes are written but
/// not yet durable (what a kill can lose).
///
/// `@unchecked Sendable`: the counters marked "guarded" are touched only while holding `lock`; a block belongs to
/// exactly one stage at a time (the filler, then the hasher, then the writer, handed on through the counters), and
/// the other fields belong to one thread each.
final class WritePipeline: @unchecked Sendable {
    /// 16 × 64 KiB: `TransferMemory.ring`, every byte of it resident.
    static let blockSize = 64 << 10
    static let blockCount = TransferMemory.ring / blockSize
    /// Blocks written in one `pwritev` (512 KiB), half the ring, so the other half keeps the transfer going. The
    /// writer waits for a whole batch (unless a commit is due or the response ended): an `O_DIRECT` write costs
    /// about the same whatever its size up to 1 MiB on the benchmark's disk (0.2–0.4 ms for 64 KiB, about as long
    /// for 256 KiB), so a writer that took each block as soon as it was hashed wrote mostly 64 KiB at a time and
    /// was what a fast transfer waited for (Benchmarks/README.md, fetch-bench).
    static let batch = blockCount / 2
    /// With a consumer of the durable counts (`callback`: a streaming install extracting the bytes as they become
    /// durable), the bytes are also committed once 4 and 6 MiB past where this pipeline started, so that the
    /// extraction starts after 4 MiB instead of the first chunk (8 MiB: 0.17 s at 50 MB/s, which the extraction,
    /// about as fast as the transfer, never made up). Two more commits per response, only then. Not earlier: a
    /// commit's journal flush slows the transfer for a moment, and the first 4 MiB are the split probe's measure of
    /// the connection (`SegmentOptions.probeBytes`): commits at 1 and 2 MiB made a fast connection look slow.
    static let earlyCommits: [Int64] = [4 << 20, 6 << 20]

    private struct Block {
        /// File offset of the block's first byte (aligned, except after a write that could not be).
        var start: Int64 = 0
        /// Bytes filled.
        var count = 0
        /// Bytes before this offset are already in the hash (the head of a block re-read on an unaligned resume).
        var hashFrom: Int64 = 0
        /// Hash state after the block's last byte, set by the hash thread.
        var state: [UInt8] = []
        /// Post the journal once this block is written (a commit is due).
        var commit = false
        var end: Int64 { start + Int64(count) }
    }

    private let staging: StagingFile
    private let queue: CommitQueue
    private let chunkSize: Int64
    private let commitInterval: Double
    private let maxUnsynced: Int64
    private let storage: UnsafeMutableRawBufferPointer
    private let blocks: UnsafeMutablePointer<Block>
    /// One condition per kind of waiter, so each update wakes only the thread it concerns.
    private enum Waiter: Int {
        case filler, hasher, writer, closer
    }

    private let lock = ConditionLock(conditions: 4)

    // Guarded by `lock`: blocks sealed by the filler, hashed, and written (monotonic; block = count % blockCount).
    private var sealed = 0
    private var hashed = 0
    private var written = 0
    private var closing = false
    private var running = 2
    private var failure: SystemError?

    // Transfer thread only.
    private var filling: UnsafeMutablePointer<Block>?
    private var next: Int64
    private var lastCommit = ProgressMeter.now()
    /// The offsets still to commit at early (`earlyCommits` past the start; empty without a consumer).
    private var earlyCommitOffsets: ArraySlice<Int64>

    // Hash thread only.
    private var hasher: SHA256

    // Writer thread only.
    private var latest: Journal
    private var posted: Int64

    init(staging: StagingFile, durable: Journal, commitInterval: Double, callback: (@Sendable (Int64) -> Void)?) {
        self.staging = staging
        self.commitInterval = commitInterval
        chunkSize = durable.chunkSize
        maxUnsynced = max(4 * durable.chunkSize, 2 * Int64(Self.blockSize))
        storage = .allocate(byteCount: Self.blockSize * Self.blockCount, alignment: max(4096, staging.alignment))
        blocks = .allocate(capacity: Self.blockCount)
        blocks.initialize(repeating: Block(), count: Self.blockCount)
        next = durable.committed
        earlyCommitOffsets = callback == nil ? [] : Self.earlyCommits.map { durable.committed + $0 }[...]
        latest = durable
        posted = durable.committed
        hasher = SHA256(savedState: durable.hashState) ?? SHA256()
        queue = CommitQueue(staging: staging, durable: durable, callback: callback)
        WorkerThread.start(name: "docsync-hash") { [self] in hashLoop() }
        WorkerThread.start(name: "docsync-write") { [self] in writeLoop() }
    }

    deinit {
        blocks.deinitialize(count: Self.blockCount)
        blocks.deallocate()
        storage.deallocate()
    }

    private func buffer(of block: UnsafeMutablePointer<Block>) -> UnsafeMutableRawBufferPointer {
        let index = block - blocks
        return UnsafeMutableRawBufferPointer(
            rebasing: storage[(index * Self.blockSize)..<((index + 1) * Self.blockSize)])
    }

    // MARK: - Transfer thread

    /// Copies `data` (the bytes at the current end) into blocks, sealing each full one. Waits while every block is
    /// busy. Returns a failure of an earlier write or commit, after which the transfer must stop.
    func append(_ data: UnsafeRawBufferPointer) -> SystemError? {
        var rest = data
        while !rest.isEmpty {
            guard let block = filling ?? acquire() else { return currentFailure() }
            let end = block.pointee.end
            let room = Int(min(Int64(Self.blockSize - block.pointee.count), chunkSize - end % chunkSize))
            let count = min(room, rest.count)
            let target = buffer(of: block).baseAddress! + block.pointee.count
            target.copyMemory(from: rest.baseAddress!, byteCount: count)
            block.pointee.count += count
            rest = UnsafeRawBufferPointer(rebasing: rest[count...])
            if count == room { seal(commit: false) }
        }
        if filling != nil, ProgressMeter.now() - lastCommit >= commitInterval, let error = sealAlignedPrefix() {
            return error
        }
        return currentFailure()
    }

    /// Seals what is filled and waits until the hash and writer threads have handled every block and the last
    /// journal is durable. Returns that journal and the first failure.
    func close() -> (journal: Journal, failure: SystemError?) {
        if let block = filling, block.pointee.end > block.pointee.hashFrom { seal(commit: true) }
        lock.withLock {
            closing = true
            lock.broadcastAll()
            while running > 0 { lock.wait(on: Waiter.closer.rawValue) }
        }
        let (durable, queueFailure) = queue.close()
        return (durable, currentFailure() ?? queueFailure)
    }

    /// The next free block, starting at `next`; nil after a failure. On a resume from an unaligned offset the block
    /// starts at the alignment boundary below, with the bytes up to `next` read back from the file (already hashed).
    private func acquire() -> UnsafeMutablePointer<Block>? {
        let index: Int? = lock.withLock {
            while sealed - written >= Self.blockCount, failure == nil { lock.wait(on: Waiter.filler.rawValue) }
            return failure == nil ? sealed % Self.blockCount : nil
        }
        guard let index else { return nil }
        let block = blocks + index
        let alignment = Int64(staging.alignment)
        let start = staging.directFD >= 0 ? next - next % alignment : next
        block.pointee = Block(start: start, count: Int(next - start), hashFrom: next)
        if start < next {
            do throws(SystemError) {
                let head = UnsafeMutableRawBufferPointer(rebasing: buffer(of: block)[0..<Int(next - start)])
                guard try staging.read(into: head, at: start) else {
                    throw SystemError("pread", path: staging.partPath, code: EIO)
                }
            } catch {
                fail(error)
                return nil
            }
        }
        filling = block
        return block
    }

    /// Hands the block being filled to the hash thread; marks it for a commit when asked or when one is due.
    private func seal(commit: Bool) {
        guard let block = filling else { return }
        let now = ProgressMeter.now()
        var early = false
        while let offset = earlyCommitOffsets.first, block.pointee.end >= offset {
            early = true
            earlyCommitOffsets.removeFirst()
        }
        block.pointee.commit = commit || early || now - lastCommit >= commitInterval
        if block.pointee.commit { lastCommit = now }
        next = block.pointee.end
        filling = nil
        lock.withLock {
            sealed += 1
            lock.broadcast(Waiter.hasher.rawValue)
        }
    }

    /// A commit is due on a slow link: seal the block up to its last aligned byte, carrying the rest (less than one
    /// alignment unit) over into the next block, so every write but the last can still bypass the page cache.
    private func sealAlignedPrefix() -> SystemError? {
        guard let block = filling else { return nil }
        let alignment = Int64(staging.alignment)
        let end = block.pointee.end
        let cut = staging.directFD >= 0 ? end - end % alignment : end
        guard cut > block.pointee.start, cut > block.pointee.hashFrom else { return nil }
        let carried = Int(end - cut)
        var tail = [UInt8](repeating: 0, count: carried)
        if carried > 0 {
            let source = UnsafeRawBufferPointer(buffer(of: block))[Int(cut - block.pointee.start)..<block.pointee.count]
            tail.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: source)) }
        }
        block.pointee.count = Int(cut - block.pointee.start)
        seal(commit: true)
        guard carried > 0 else { return nil }
        guard let following = acquire() else { return currentFailure() }
        tail.withUnsafeBytes {
            buffer(of: following).baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: carried)
        }
        following.pointee.count = carried
        following.pointee.hashFrom = following.pointee.start
        return nil
    }

    private func currentFailure() -> SystemError? { lock.withLock { failure } }

    private func fail(_ error: SystemError) {
        lock.withLock {
            if failure == nil { failure = error }
            lock.broadcastAll()
        }
    }

    // MARK: - Hash thread

    private func hashLoop() {
        while let index = nextJob(.hasher, after: { hashed }, upTo: { sealed }) {
            let block = blocks + index
            let skip = Int(block.pointee.hashFrom - block.pointee.start)
            if block.pointee.count > skip {
                hasher.update(UnsafeRawBufferPointer(rebasing: buffer(of: block)[skip..<block.pointee.count]))
            }
            block.pointee.state = hasher.savedState
            lock.withLock {
                hashed += 1
                if hashed - written >= Self.batch || block.pointee.commit || closing {
                    lock.broadcast(Waiter.writer.rawValue)
                }
            }
        }
        finishThread()
    }

    // MARK: - Writer thread

    private func writeLoop() {
        while let (first, count) = nextBatch() {
            let batch = (0..<count).map { blocks + (first + $0) % Self.blockCount }
            if let error = write(batch) {
                fail(error)
                break
            }
            lock.withLock {
                written += count
                lock.broadcast(Waiter.filler.rawValue)
            }
        }
        if currentFailure() == nil, latest.committed != posted, let error = queue.post(latest) { fail(error) }
        finishThread()
    }

    /// Waits for a whole batch of hashed blocks — or fewer when one of them is marked for a commit or the response
    /// ended — and takes up to `batch` of them. Nil once closing and nothing is left, or after a failure.
    private func nextBatch() -> (first: Int, count: Int)? {
        lock.withLock {
            while failure == nil, !(closing && written == sealed), !batchReady() {
                lock.wait(on: Waiter.writer.rawValue)
            }
            guard failure == nil, written < hashed else { return nil }
            return (written % Self.blockCount, min(hashed - written, Self.batch))
        }
    }

    /// Holding `lock`: enough hashed blocks for one write.
    private func batchReady() -> Bool {
        let ready = hashed - written
        guard ready < Self.batch else { return true }
        return ready > 0 && (closing || (written..<hashed).contains { blocks[$0 % Self.blockCount].commit })
    }

    /// Writes consecutive blocks — in one `pwritev` through `O_DIRECT` when they are aligned (an unaligned last
    /// tail goes through the page cache) — and advances the journal, posting it when the batch crosses a chunk
    /// boundary or holds a block marked for a commit.
    private func write(_ batch: [UnsafeMutablePointer<Block>]) -> SystemError? {
        guard let start = batch.first?.pointee.start, let end = batch.last?.pointee.end else { return nil }
        if let error = queue.waitUntilDurable(end - maxUnsynced) { return error }
        let pieces = batch.map { UnsafeRawBufferPointer(rebasing: buffer(of: $0)[0..<$0.pointee.count]) }
        do throws(SystemError) { try staging.write(pieces, at: start) } catch { return error }
        var due = false
        for block in batch {
            latest.committed = block.pointee.end
            latest.hashState = block.pointee.state
            if block.pointee.end % chunkSize == 0 {
                latest.checkpoints.append(Journal.Checkpoint(offset: block.pointee.end, state: block.pointee.state))
                due = true
            }
            due = due || block.pointee.commit
        }
        guard due else { return nil }
        posted = end
        return queue.post(latest)
    }

    /// Waits for the next block a stage may take: the index of block `done()`, once `available()` is past it.
    /// Nil once closing and nothing is left, or after a failure.
    private func nextJob(_ waiter: Waiter, after done: () -> Int, upTo available: () -> Int) -> Int? {
        lock.withLock {
            while done() == available(), !closing || done() < sealed, failure == nil {
                lock.wait(on: waiter.rawValue)
            }
            guard failure == nil, done() < available() else { return nil }
            return done() % Self.blockCount
        }
    }

    private func finishThread() {
        lock.withLock {
            running -= 1
            lock.broadcast(Waiter.closer.rawValue)
        }
    }
}
