import DocSyncSupport
import Synchronization
import TestSupport
import Testing

@testable import DocSyncServe

/// The server's blocking-work pool: a fixed number of threads, a bounded queue that refuses beyond its limit, and
/// a shutdown that runs what was queued and refuses the rest.
@Suite(.timeLimit(.minutes(10))) struct BlockingPoolTests {
    /// A gate a job waits at until the test opens it.
    final class Gate: Sendable {
        private let state = Mutex((started: 0, open: false))
        private let lock = ConditionLock()

        var started: Int { state.withLock { $0.started } }

        func pass() {
            state.withLock { $0.started += 1 }
            lock.withLock {
                while !state.withLock({ $0.open }) { lock.wait() }
            }
        }

        func open() {
            lock.withLock {
                state.withLock { $0.open = true }
                lock.broadcast()
            }
        }
    }

    /// The submitting tasks run on the cooperative pool, which the rest of a parallel suite can keep busy on two
    /// cores for tens of seconds: the deadline is generous (the pool's own threads start at once).
    static let startDeadline = 240.0

    @Test func jobsBeyondTheThreadsWaitAndBeyondTheQueueAreRefused() async throws {
        let pool = BlockingPool(name: "test-pool", threads: 1, queueLimit: 1)
        defer { pool.shutdown() }
        let gate = Gate()
        let first = Task { await pool.run { () -> Int in gate.pass(); return 1 } }
        try await Poll.until("the first job to start", timeout: Self.startDeadline) { () async in gate.started == 1 }
        let second = Task { await pool.run { () -> Int in 2 } }
        try await Poll.until("the second job to be queued", timeout: Self.startDeadline) { () async in pool.waiting == 1 }
        // One running, one queued: the third is refused at once, without running.
        let third = await pool.run { () -> Int in 3 }
        #expect(third == nil)
        gate.open()
        #expect(await first.value == 1)
        #expect(await second.value == 2)
        #expect(pool.waiting == 0)
    }

    @Test func runsOnAsManyThreadsAsAskedAtOnce() async throws {
        let pool = BlockingPool(name: "test-pool", threads: 3, queueLimit: 8)
        defer { pool.shutdown() }
        let gate = Gate()
        let jobs = (0..<3).map { k in Task { await pool.run { () -> Int in gate.pass(); return k } } }
        // All three start before any finishes: three threads, not one after another.
        try await Poll.until("three jobs to run at once", timeout: Self.startDeadline) { () async in gate.started == 3 }
        gate.open()
        var results: [Int?] = []
        for job in jobs { results.append(await job.value) }
        #expect(results == [0, 1, 2])
    }

    @Test func afterShutdownNothingIsAccepted() async throws {
        let pool = BlockingPool(name: "test-pool", threads: 1, queueLimit: 4)
        #expect(await pool.run { 7 } == 7)
        pool.shutdown()
        #expect(await pool.run { 8 } == nil)
    }
}
