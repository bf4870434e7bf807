import DocSyncSupport
import Foundation

/// Makes journal commits durable on a thread of its own, so receiving the next chunk overlaps with syncing the
/// previous one (double buffering): at most one commit is in flight, and a new one waits for it, so the bytes not
/// yet durable never exceed two commit intervals.
///
/// `@unchecked Sendable`: every mutable field is read and written only while holding `condition`; `staging` is
/// shared with the transfer thread, which only calls `pwrite` on its descriptor while this thread calls
/// `fdatasync` and writes the journal files (both safe on one descriptor from two threads).
final class CommitQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private let staging: StagingFile
    private let callback: (@Sendable (Int64) -> Void)?
    private var inFlight: Journal?
    private var durable: Journal
    private var failure: SystemError?
    private var closed = false

    init(staging: StagingFile, durable: Journal, callback: (@Sendable (Int64) -> Void)?) {
        self.staging = staging
        self.durable = durable
        self.callback = callback
        let thread = Thread { [self] in run() }
        thread.name = "docsync-commit"
        thread.stackSize = 256 << 10
        thread.start()
    }

    /// Queues `journal` for commit, first waiting for the commit in flight. Returns an earlier commit's failure.
    func submit(_ journal: Journal) -> SystemError? {
        condition.lock()
        defer { condition.unlock() }
        while inFlight != nil, failure == nil { condition.wait() }
        if let failure { return failure }
        inFlight = journal
        condition.broadcast()
        return nil
    }

    /// Queues `journal` only when no commit is in flight (time-based commits never wait).
    func offer(_ journal: Journal) -> (accepted: Bool, failure: SystemError?) {
        condition.lock()
        defer { condition.unlock() }
        if let failure { return (false, failure) }
        guard inFlight == nil else { return (false, nil) }
        inFlight = journal
        condition.broadcast()
        return (true, nil)
    }

    /// Waits for the commit in flight, stops the thread, and returns the durable journal and any failure.
    func close() -> (journal: Journal, failure: SystemError?) {
        condition.lock()
        defer { condition.unlock() }
        while inFlight != nil, failure == nil { condition.wait() }
        closed = true
        condition.broadcast()
        return (durable, failure)
    }

    private func run() {
        condition.lock()
        while true {
            while inFlight == nil, !closed { condition.wait() }
            guard let job = inFlight, failure == nil else { break }
            condition.unlock()
            var problem: SystemError?
            do throws(SystemError) { try staging.commit(job) } catch { problem = error }
            if problem == nil { callback?(job.committed) }
            condition.lock()
            if let problem { failure = problem } else { durable = job }
            inFlight = nil
            condition.broadcast()
        }
        condition.unlock()
    }
}
