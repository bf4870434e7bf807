import DocSyncSupport
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The shared state of one segmented download: the scheduler, each segment's chunk hash state, the digests of
/// finished chunks, and the durable record. Transfers call in from their own threads.
///
/// Commits run on the `SegmentCommitter`'s thread: transfers only ask for them, never wait for an fdatasync.
/// Commit order per checkpoint (checklist A2): snapshot what is written → fdatasync(part) → journal.tmp → fsync →
/// rename → fsync(dir); the snapshot is taken before the sync, so the journal never vouches for a byte written
/// after it. Nobody waits on either lock (the committer's thread does the waiting): `Mutex`es. `@unchecked Sendable`:
/// `staging` (pwrite/pread/fdatasync, safe from several threads) and `meter` (used only inside `state`'s lock) are
/// classes that are not `Sendable`, and `committer` is set once, in `init`.
final class SegmentStore: @unchecked Sendable {
    let staging: StagingFile
    let key: String
    let url: String
    let chunkSize: Int64
    let identity: SegmentIdentity
    private let state: Mutex<State>
    /// Serialises commits.
    private let commitLock = Mutex(())
    private let callback: (@Sendable (Int64) -> Void)?
    private let meter: ProgressMeter
    /// Hashes the durable prefix as it grows (the whole-file SHA-256 and every chunk read back).
    let prefixHasher: PrefixHasher
    private var committer: SegmentCommitter!

    private struct State {
        var scheduler: SegmentScheduler
        /// Segment start → SHA-256 state of its unfinished chunk at `done`.
        var chunkStates: [Int64: [UInt8]] = [:]
        var digests: [Int64: [UInt8]]
        var durable: SegmentJournal
        var written: Int64
        var lastCommit = ProgressMeter.now()
    }

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
        var initial = State(
            scheduler: SegmentScheduler(
                length: journal.identity.length, chunkSize: journal.chunkSize,
                ranges: journal.extents.map { ($0.start..<$0.end, $0.done) }, hosts: hosts, perHost: perHost),
            digests: journal.digests, durable: journal, written: journal.durableBytes)
        for extent in journal.extents { initial.chunkStates[extent.start] = extent.chunkState }
        state = Mutex(initial)
        committer = SegmentCommitter { [weak self] () throws(SystemError) in try self?.commitSnapshot() }
    }

    var isComplete: Bool { state.withLock { $0.scheduler.isComplete } }
    var hasAdmittedAlternate: Bool { state.withLock { $0.scheduler.hasAdmittedAlternate } }
    var journal: SegmentJournal { state.withLock { $0.durable } }
    var alternates: [SegmentScheduler.Alternate] { state.withLock { $0.scheduler.alternates } }
    var segments: [SegmentScheduler.Segment] { state.withLock { $0.scheduler.segments } }

    /// A range for free connection `connection`, with the chunk hash state at its first byte.
    func assign(connection: Int) -> (assignment: SegmentScheduler.Assignment, chunkState: [UInt8])? {
        state.withLock { state in
            guard let assignment = state.scheduler.assign(connection: connection, now: ProgressMeter.now()) else {
                return nil
            }
            let fresh = assignment.from % chunkSize == 0
            let hash = fresh ? SHA256().savedState : state.chunkStates[assignment.segment] ?? SHA256().savedState
            return (assignment, hash)
        }
    }

    func claim(connection: Int, at position: Int64, count: Int64) -> Int64 {
        state.withLock { $0.scheduler.claim(connection: connection, at: position, count: count) }
    }

    /// `connection` wrote its segment up to `position`; `chunkState` is the hash state there, `finished` the digest
    /// of a chunk that ended on the way.
    func wrote(
        connection: Int, segment: Int64, to position: Int64, count: Int64, chunkState: [UInt8],
        finished: [(index: Int64, digest: [UInt8])]
    ) {
        state.withLock { state in
            state.scheduler.advance(connection: connection, to: position)
            state.chunkStates[segment] = chunkState
            for chunk in finished { state.digests[chunk.index] = chunk.digest }
            state.written += count
            meter.received(Int(count))
            meter.report(bytes: state.written, total: identity.length)
        }
    }

    func release(connection: Int) {
        state.withLock { $0.scheduler.release(connection: connection, now: ProgressMeter.now()) }
    }

    func exclude(mirror: Int) { state.withLock { $0.scheduler.exclude(mirror: mirror) } }

    func setProven(_ proven: Bool, mirror: Int) { state.withLock { $0.scheduler.setProven(proven, mirror: mirror) } }

    /// A window of `count` written bytes and those bytes, read back from the file, to prove a mirror with.
    func proofWindow(count: Int64) throws(SystemError) -> (window: Range<Int64>, bytes: [UInt8])? {
        guard count > 0, let window = state.withLock({ $0.scheduler.proofWindow(count: count) }) else { return nil }
        let raw = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(count), alignment: 16)
        defer { raw.deallocate() }
        guard try staging.read(into: raw, at: window.lowerBound) else { return nil }
        return (window, Array(raw))
    }

    /// Asks for a commit when `force`d (a chunk ended) or when none started for `interval` seconds; never waits for
    /// it. Throws an earlier commit's failure.
    func commit(force: Bool, interval: Double) throws(SystemError) {
        let due = state.withLock { state in
            let now = ProgressMeter.now()
            guard force || now - state.lastCommit >= interval else { return false }
            state.lastCommit = now  // one request per interval, however long the commit thread takes to start it
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
        try commitLock.withLock { _ throws(SystemError) in
            let snapshot = state.withLock { state in
                state.lastCommit = ProgressMeter.now()
                return record(state)
            }
            try staging.commit(encoded: snapshot.encoded())
            state.withLock { $0.durable = snapshot }
            prefixHasher.advance(to: snapshot.contiguous, digests: snapshot.digests)
            callback?(snapshot.contiguous)
        }
    }

    /// The journal of what is written now (`state` as its lock holds it).
    private func record(_ state: State) -> SegmentJournal {
        let extents = state.scheduler.segments.map { segment in
            SegmentJournal.Extent(
                start: segment.start, end: segment.end, done: segment.done,
                chunkState: segment.done % chunkSize == 0 || segment.done == segment.end
                    ? SHA256().savedState : state.chunkStates[segment.start] ?? SHA256().savedState)
        }
        var kept: [Int64: [UInt8]] = [:]
        for extent in extents {
            var chunk = extent.start
            while chunk < extent.done {
                let end = min(chunk + chunkSize, extent.end)
                if end <= extent.done, let digest = state.digests[chunk / chunkSize] { kept[chunk / chunkSize] = digest }
                chunk = end
            }
        }
        return SegmentJournal(
            key: key, url: url, identity: identity, chunkSize: chunkSize, extents: extents, digests: kept)
    }
}
