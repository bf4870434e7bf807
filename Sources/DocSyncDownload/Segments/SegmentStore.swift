import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The shared state of one segmented download: the scheduler, each segment's chunk hash state, the digests of
/// finished chunks, and the durable record. Transfers call in from their own threads.
///
/// Commits run on the `SegmentCommitter`'s thread: transfers only ask for them, never wait for an fdatasync.
/// Commit order per checkpoint (checklist A2): snapshot what is written → fdatasync(part) → journal.tmp → fsync →
/// rename → fsync(dir); the snapshot is taken before the sync, so the journal never vouches for a byte written
/// after it. `@unchecked Sendable`: every mutable field is touched only while holding `lock`; commits are
/// serialised by `commitLock`; `staging` is used for pwrite/pread/fdatasync, which are safe from several threads.
final class SegmentStore: @unchecked Sendable {
    let staging: StagingFile
    let key: String
    let url: String
    let chunkSize: Int64
    private let lock = ConditionLock()
    private let commitLock = ConditionLock()
    private let callback: (@Sendable (Int64) -> Void)?
    private let meter: ProgressMeter
    /// Hashes the durable prefix as it grows (the whole-file SHA-256 and every chunk read back).
    let prefixHasher: PrefixHasher
    private var committer: SegmentCommitter!

    // Guarded by `lock`.
    private(set) var identity: SegmentIdentity
    private var scheduler: SegmentScheduler
    /// Segment start → SHA-256 state of its unfinished chunk at `done`.
    private var chunkStates: [Int64: [UInt8]] = [:]
    private var digests: [Int64: [UInt8]]
    private var durable: SegmentJournal
    private var written: Int64
    private var lastCommit = ProgressMeter.now()

    init(
        staging: StagingFile, journal: SegmentJournal, hosts: [String], perHost: Int, meter: ProgressMeter,
        callback: (@Sendable (Int64) -> Void)?
    ) {
        self.staging = staging
        key = journal.key
        url = journal.url
        chunkSize = journal.chunkSize
        self.meter = meter
        self.callback = callback
        prefixHasher = PrefixHasher(staging: staging, chunkSize: journal.chunkSize, length: journal.identity.length)
        identity = journal.identity
        scheduler = SegmentScheduler(
            length: journal.identity.length, chunkSize: journal.chunkSize,
            ranges: journal.extents.map { ($0.start..<$0.end, $0.done) }, hosts: hosts, perHost: perHost)
        for extent in journal.extents { chunkStates[extent.start] = extent.chunkState }
        digests = journal.digests
        durable = journal
        written = journal.durableBytes
        committer = SegmentCommitter { [weak self] () throws(SystemError) in try self?.commitSnapshot() }
    }

    var isComplete: Bool { lock.withLock { scheduler.isComplete } }
    var hasAdmittedAlternate: Bool { lock.withLock { scheduler.hasAdmittedAlternate } }
    var journal: SegmentJournal { lock.withLock { durable } }
    var alternates: [SegmentScheduler.Alternate] { lock.withLock { scheduler.alternates } }
    var segments: [SegmentScheduler.Segment] { lock.withLock { scheduler.segments } }

    /// A range for free connection `connection`, with the chunk hash state at its first byte.
    func assign(connection: Int) -> (assignment: SegmentScheduler.Assignment, chunkState: [UInt8])? {
        lock.withLock {
            guard let assignment = scheduler.assign(connection: connection, now: ProgressMeter.now()) else { return nil }
            let fresh = assignment.from % chunkSize == 0
            let state = fresh ? SHA256().savedState : chunkStates[assignment.segment] ?? SHA256().savedState
            return (assignment, state)
        }
    }

    func claim(connection: Int, at position: Int64, count: Int64) -> Int64 {
        lock.withLock { scheduler.claim(connection: connection, at: position, count: count) }
    }

    /// `connection` wrote its segment up to `position`; `chunkState` is the hash state there, `finished` the digest
    /// of a chunk that ended on the way.
    func wrote(
        connection: Int, segment: Int64, to position: Int64, count: Int64, chunkState: [UInt8],
        finished: [(index: Int64, digest: [UInt8])]
    ) {
        lock.withLock {
            scheduler.advance(connection: connection, to: position)
            chunkStates[segment] = chunkState
            for chunk in finished { digests[chunk.index] = chunk.digest }
            written += count
            meter.received(Int(count))
            meter.report(bytes: written, total: identity.length)
        }
    }

    func release(connection: Int) { lock.withLock { scheduler.release(connection: connection, now: ProgressMeter.now()) } }

    func exclude(mirror: Int) { lock.withLock { scheduler.exclude(mirror: mirror) } }

    func setProven(_ proven: Bool, mirror: Int) { lock.withLock { scheduler.setProven(proven, mirror: mirror) } }

    /// A window of `count` written bytes and those bytes, read back from the file, to prove a mirror with.
    func proofWindow(count: Int64) throws(SystemError) -> (window: Range<Int64>, bytes: [UInt8])? {
        guard count > 0, let window = lock.withLock({ scheduler.proofWindow(count: count) }) else { return nil }
        let raw = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(count), alignment: 16)
        defer { raw.deallocate() }
        guard try staging.read(into: raw, at: window.lowerBound) else { return nil }
        return (window, Array(raw))
    }

    /// Asks for a commit when `force`d (a chunk ended) or when none started for `interval` seconds; never waits for
    /// it. Throws an earlier commit's failure.
    func commit(force: Bool, interval: Double) throws(SystemError) {
        let due = lock.withLock {
            let now = ProgressMeter.now()
            guard force || now - lastCommit >= interval else { return false }
            lastCommit = now  // one request per interval, however long the commit thread takes to start it
            return true
        }
        if due, let failure = committer.request() { throw failure }
    }

    /// Asks for a commit without waiting (a transfer that stopped between commits).
    func requestCommit() throws(SystemError) {
        if let failure = committer.request() { throw failure }
    }

    /// Makes everything written so far durable and records it; returns when it is.
    func commit() throws(SystemError) { try committer.commitAndWait() }

    /// Stops the commit thread (after a commit under way); the store takes no more commits.
    func closeCommits() { committer.close() }

    /// Snapshot → fdatasync → journal; reports the durable prefix from byte 0. On the committer's thread.
    private func commitSnapshot() throws(SystemError) {
        try commitLock.withLock { () throws(SystemError) in
            lock.withLock { lastCommit = ProgressMeter.now() }
            let snapshot = lock.withLock { record() }
            try staging.commit(encoded: snapshot.encoded())
            lock.withLock { durable = snapshot }
            prefixHasher.advance(to: snapshot.contiguous, digests: snapshot.digests)
            callback?(snapshot.contiguous)
        }
    }

    /// The journal of what is written now (caller holds `lock`).
    private func record() -> SegmentJournal {
        let extents = scheduler.segments.map { segment in
            SegmentJournal.Extent(
                start: segment.start, end: segment.end, done: segment.done,
                chunkState: segment.done % chunkSize == 0 || segment.done == segment.end
                    ? SHA256().savedState : chunkStates[segment.start] ?? SHA256().savedState)
        }
        var kept: [Int64: [UInt8]] = [:]
        for extent in extents {
            var chunk = extent.start
            while chunk < extent.done {
                let end = min(chunk + chunkSize, extent.end)
                if end <= extent.done, let digest = digests[chunk / chunkSize] { kept[chunk / chunkSize] = digest }
                chunk = end
            }
        }
        return SegmentJournal(
            key: key, url: url, identity: identity, chunkSize: chunkSize, extents: extents, digests: kept)
    }
}
