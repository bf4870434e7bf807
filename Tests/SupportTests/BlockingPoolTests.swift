import DocSyncSupport
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif



/// The server's blocking-work pool: a fixed number of threads, a bounded queue that refuses beyond its limit, and
/// a shutdown that runs what was queued and refuses the rest.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct BlockingPoolTests {
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

    /// Results of jobs, by the job's number.
    final class Results: Sendable {
        private let values = Mutex<[Int: Int]>([:])
        func set(_ k: Int, _ v: Int) { values.withLock { $0[k] = v } }
        func add(_ k: Int) { values.withLock { $0[k, default: 0] += 1 } }
        var all: [Int: Int] { values.withLock { $0 } }
    }

    // These tests submit and wait from the test's own thread (`submit`, a blocking `Poll.until`), never through a
    // task that the cooperative pool must schedule: a parallel suite on two cores can keep that pool busy for
    // minutes, and the pool's own threads start a job at once.

    @Test func jobsBeyondTheThreadsWaitAndBeyondTheQueueAreRefused() throws {
        let pool = BlockingPool(name: "test-pool", threads: 1, queueLimit: 1)
        defer { pool.shutdown() }
        let gate = Gate()
        let results = Results()
        #expect(pool.submit { gate.pass(); results.set(1, 1) })
        try Poll.until("the first job to start") { gate.started == 1 }
        #expect(pool.submit { results.set(2, 2) })
        #expect(pool.waiting == 1)
        // One running, one queued: the third is refused at once, without running.
        #expect(!pool.submit { results.set(3, 3) })
        #expect(pool.rejected == 1)
        gate.open()
        try Poll.until("both accepted jobs to finish") { results.all.count == 2 }
        #expect(results.all == [1: 1, 2: 2])
        #expect(pool.waiting == 0)
    }

    @Test func runsOnAsManyThreadsAsAskedAtOnce() throws {
        let pool = BlockingPool(name: "test-pool", threads: 3, queueLimit: 8)
        defer { pool.shutdown() }
        let gate = Gate()
        let results = Results()
        for k in 0..<3 { #expect(pool.submit { gate.pass(); results.set(k, k) }) }
        // All three start before any finishes: three threads, not one after another.
        try Poll.until("three jobs to run at once") { gate.started == 3 }
        gate.open()
        try Poll.until("the three jobs to finish") { results.all.count == 3 }
        #expect(results.all == [0: 0, 1: 1, 2: 2])
    }

    @Test func afterShutdownNothingIsAccepted() async throws {
        let pool = BlockingPool(name: "test-pool", threads: 1, queueLimit: 4)
        #expect(await pool.run { 7 } == 7)
        pool.shutdown()
        #expect(await pool.run { 8 } == nil)
    }

    /// With an idle timeout, threads that found no job for that long end (a daemon's transfer threads after a
    /// download over 16 connections); the pool starts threads again for later jobs.
    @Test func idleThreadsEndAfterTheIdleTimeout() throws {
        let pool = BlockingPool(name: "test-idle", threads: 4, queueLimit: .max, idleTimeout: 0.2)
        defer { pool.shutdown() }
        let gate = Gate()
        let results = Results()
        for job in 0..<3 { #expect(pool.submit { gate.pass(); results.set(job, job) }) }
        try Poll.until("three jobs running at once") { gate.started == 3 }
        #expect(pool.running == 3)
        gate.open()
        try Poll.until("the idle threads to end") { pool.running == 0 }
        #expect(results.all.count == 3)
        #expect(pool.submit { results.set(3, 3) })
        try Poll.until("a job after the threads ended") { results.all.count == 4 }
        try Poll.until("its thread to end too") { pool.running == 0 }
    }

    /// `split` runs every part exactly once and returns after the last; with the pool's one thread held by another
    /// job, the caller runs the queued parts itself instead of waiting for the queue (no deadlock when every thread
    /// of the pool is a splitting caller).
    @Test func splitRunsEveryPartOnceAndTheCallerTakesWhatIsStillQueued() throws {
        let pool = BlockingPool(name: "test-split", threads: 2, queueLimit: 16)
        defer { pool.shutdown() }
        let runs = Results()
        let counts = Results()
        pool.split(5) { part in counts.add(part) }
        #expect(counts.all == [0: 1, 1: 1, 2: 1, 3: 1, 4: 1])

        let busy = BlockingPool(name: "test-split-busy", threads: 1, queueLimit: 16)
        let gate = Gate()
        #expect(busy.submit { gate.pass() })
        try Poll.until("the pool's one thread to be held") { gate.started == 1 }
        let caller = Results()
        let me = Int(bitPattern: UInt(pthread_self()))
        busy.split(3) { part in
            runs.set(part, part)
            caller.set(part, Int(bitPattern: UInt(pthread_self())) == me ? 1 : 0)
        }
        #expect(runs.all == [0: 0, 1: 1, 2: 2])
        #expect(caller.all == [0: 1, 1: 1, 2: 1], "every part ran on the caller while the pool was held")
        gate.open()
        // The queued jobs the caller claimed find their parts taken and return without running them again.
        #expect(busy.submit { runs.set(9, 9) })
        try Poll.until("the pool to drain its queue") { runs.all[9] == 9 && busy.waiting == 0 }
        #expect(runs.all.count == 4)
        busy.shutdown()
    }
}

/// A thread the system refuses is an error for the jobs no thread can run, not a trap.
@Suite(.timeLimit(.minutes(10))) struct BlockingPoolThreadFailureTests {
    /// A 64 TiB stack: `pthread_create` cannot map it.
    static let impossibleStack = 1 << 46

    @Test func aThreadThatCannotBeCreatedIsAnError() async throws {
        #expect(throws: ThreadStartError.self) {
            try WorkerThread.tryStart(name: "test-huge", stackSize: Self.impossibleStack) {}
        }
        let pool = BlockingPool(name: "test-huge", threads: 2, queueLimit: 8, stackSize: Self.impossibleStack)
        await #expect {
            _ = try await pool.perform { 7 }
        } throws: { error in
            guard case .noThread(let failure) = error as? BlockingPool.Refusal else { return false }
            return failure.name == "test-huge" && failure.description.hasPrefix("cannot start a thread (test-huge): ")
        }
        #expect(pool.running == 0 && pool.waiting == 0)
        #expect(!pool.submit {})
    }
}
