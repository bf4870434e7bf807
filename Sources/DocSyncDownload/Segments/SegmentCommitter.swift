import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a segmented download's commits on a thread of its own (speed): a transfer that reaches a chunk end
/// or the commit interval only asks for a commit and goes on receiving, so no connection's transfer waits for an
/// fdatasync (nor for another connection's). Requests that arrive while a commit runs are served by one more commit,
/// whose snapshot is taken after all of them (checkpoints accumulate), so a slow disk just gets fewer, larger commits.
///
/// `@unchecked Sendable`: every mutable field is touched only while holding `lock`.
final class SegmentCommitter: @unchecked Sendable {
    private let lock = ConditionLock()
    private let work: @Sendable () throws(SystemError) -> Void
    /// Requests so far, and the request count the last finished commit started after (its snapshot covers them).
    private var requested = 0
    private var completed = 0
    private var failure: SystemError?
    private var closed = false
    private var stopped = false

    /// `work` takes the snapshot and makes it durable; it runs on the committer's thread only.
    init(_ work: @escaping @Sendable () throws(SystemError) -> Void) {
        self.work = work
        WorkerThread.start(name: "docsync-segcommit") { [self] in run() }
    }

    /// Asks for a commit and returns at once; returns an earlier commit's failure instead.
    func request() -> SystemError? {
        lock.withLock {
            if let failure { return failure }
            requested += 1
            lock.broadcast()
            return nil
        }
    }

    /// Asks for a commit and waits until one whose snapshot was taken after this call is durable.
    func commitAndWait() throws(SystemError) {
        let failed: SystemError? = lock.withLock {
            if let failure { return failure }
            requested += 1
            let target = requested
            lock.broadcast()
            while completed < target, failure == nil, !stopped { lock.wait() }
            if let failure { return failure }
            return completed < target ? SystemError("commit", path: "(segment commits stopped)", code: ECANCELED) : nil
        }
        if let failed { throw failed }
    }

    /// Lets a commit under way finish, then stops the thread (pending requests are dropped: the download is over).
    func close() {
        lock.withLock {
            closed = true
            lock.broadcast()
            while !stopped { lock.wait() }
        }
    }

    private func run() {
        lock.lock()
        while true {
            while requested == completed, !closed, failure == nil { lock.wait() }
            if closed || failure != nil { break }
            let target = requested
            lock.unlock()
            var problem: SystemError?
            do throws(SystemError) { try work() } catch { problem = error }
            lock.lock()
            if let problem { failure = problem } else { completed = target }
            lock.broadcast()
        }
        stopped = true
        lock.broadcast()
        lock.unlock()
    }
}
