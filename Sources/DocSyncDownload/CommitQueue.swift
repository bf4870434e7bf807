import DocSyncSupport

/// Makes journal commits durable on a thread of its own, so writing the next bytes overlaps with syncing the
/// previous ones. `post` never waits: the thread always commits the newest journal posted, which covers every older
/// one (checkpoints accumulate), so a disk that syncs slowly just gets fewer, larger commits.
///
/// `@unchecked Sendable`: every mutable field is read and written only while holding `lock`; `staging` is shared
/// with the writer thread, which only calls `pwrite` on its descriptors while this thread calls `fdatasync` and
/// writes the journal files (both safe on one file from two threads).
final class CommitQueue: @unchecked Sendable {
    private let lock = ConditionLock()
    private let staging: StagingFile
    private let callback: (@Sendable (Int64) -> Void)?
    private var pending: Journal?
    private var committing = false
    private var durable: Journal
    private var failure: SystemError?
    private var closed = false

    init(staging: StagingFile, durable: Journal, callback: (@Sendable (Int64) -> Void)?) {
        self.staging = staging
        self.durable = durable
        self.callback = callback
        WorkerThread.start(name: "docsync-commit") { [self] in run() }
    }

    /// Hands over `journal` (replacing any not yet started). Returns an earlier commit's failure.
    func post(_ journal: Journal) -> SystemError? {
        lock.withLock {
            if let failure { return failure }
            pending = journal
            lock.broadcast()
            return nil
        }
    }

    /// Waits until the durable count reaches `offset`; returns a commit failure instead, if one happens.
    func waitUntilDurable(_ offset: Int64) -> SystemError? {
        lock.withLock {
            while durable.committed < offset, failure == nil, pending != nil || committing { lock.wait() }
            return failure
        }
    }

    /// Commits what was posted, stops the thread, and returns the durable journal and any failure.
    func close() -> (journal: Journal, failure: SystemError?) {
        lock.withLock {
            while pending != nil || committing, failure == nil { lock.wait() }
            closed = true
            lock.broadcast()
            return (durable, failure)
        }
    }

    private func run() {
        lock.lock()
        while true {
            while pending == nil, !closed { lock.wait() }
            guard let job = pending, failure == nil else { break }
            pending = nil
            committing = true
            lock.unlock()
            var problem: SystemError?
            do throws(SystemError) { try staging.commit(job) } catch { problem = error }
            if problem == nil { callback?(job.committed) }
            lock.lock()
            committing = false
            if let problem { failure = problem } else { durable = job }
            lock.broadcast()
        }
        lock.unlock()
    }
}
