import DocSyncSupport
import Foundation
import Synchronization
import Testing

/// Runs the bodies of tests that block a thread — synchronous child-process waits (`Tool.run`, `DocSyncProcess`),
/// kill loops, `usleep`, a synchronous `Poll.until` or `OutputReader.read` — on threads of their own instead of
/// Swift's cooperative pool. That pool has one thread per core (two on CI); a parallel suite whose tests block
/// them starves every task another test needs scheduled (a server's service group, a `Task {}`) for minutes.
///
/// Put `.blockingWaits` on the suite of every test that blocks: the test's body and its child tasks (async
/// let, task groups) run on ``BlockingTestExecutor``, which starts a thread whenever no idle one can take a job.
/// At most twice as many such tests as there are cores run at once (the rest wait suspended, holding no thread),
/// so that moving them off the pool does not start a hundred child processes together on two cores.
package struct BlockingWaitsTrait: SuiteTrait, TestTrait, TestScoping {
    package var isRecursive: Bool { true }

    package func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self  // each test case, not the suite as a whole
    }

    package func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        await Self.slots.acquire()
        defer { Self.slots.release() }
        try await withTaskExecutorPreference(BlockingTestExecutor.shared) { try await function() }
    }

    private static let slots = TestSlots(2 * ProcessInfo.processInfo.activeProcessorCount)
}

/// A counting semaphore for tasks: `acquire` suspends (holding no thread) until one of `count` slots is free.
final class TestSlots: Sendable {
    private let state: Mutex<(free: Int, waiting: [CheckedContinuation<Void, Never>])>

    init(_ count: Int) { state = Mutex((max(1, count), [])) }

    func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now: Bool = state.withLock {
                guard $0.free > 0 else {
                    $0.waiting.append(continuation)
                    return false
                }
                $0.free -= 1
                return true
            }
            if now { continuation.resume() }
        }
    }

    func release() {
        let next: CheckedContinuation<Void, Never>? = state.withLock {
            guard !$0.waiting.isEmpty else {
                $0.free += 1
                return nil
            }
            return $0.waiting.removeFirst()  // the slot passes straight to the longest waiter
        }
        next?.resume()
    }
}

extension Trait where Self == BlockingWaitsTrait {
    /// The tests block threads (child-process waits, kill loops, sleeps): run their bodies off the cooperative pool.
    package static var blockingWaits: Self { Self() }
}

/// A task executor for tests that block: a job runs at once on an idle thread, or on a new thread when none is idle,
/// so a blocked job never keeps another waiting (unlike the cooperative pool's fixed width). Threads stay for the
/// test process's life; their number is the most jobs that were ever running at once.
package final class BlockingTestExecutor: TaskExecutor, @unchecked Sendable {
    // `@unchecked Sendable`: `jobs`, `idle` and `threads` are only read or written with `lock` held.
    /// The one executor every `.blockingWaits` test shares.
    package static let shared = BlockingTestExecutor()

    private let lock = ConditionLock()
    private var jobs: [UnownedJob] = []
    private var next = 0
    private var idle = 0
    private var threads = 0

    /// Threads started so far: the most jobs that were ever running at once.
    package var threadCount: Int { lock.withLock { threads } }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let start = lock.withLock {
            jobs.append(job)
            guard jobs.count - next > idle else {
                lock.broadcast()
                return false
            }
            threads += 1
            return true
        }
        if start { WorkerThread.start(name: "test-blocking", stackSize: 8 << 20) { self.work() } }
    }

    private func work() {
        while true {
            let job = lock.withLock {
                idle += 1
                while next == jobs.count { lock.wait() }
                idle -= 1
                defer {
                    next += 1
                    if next == jobs.count { (jobs, next) = ([], 0) }
                }
                return jobs[next]
            }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

extension BlockingTestExecutor {
    /// Starts `operation` as an unstructured task on this executor instead of the cooperative pool: a task a test
    /// waits for (a server's service group, a first downloader) starts at once, never queued behind the suite's
    /// other tests on the pool's one thread per core. Its child tasks run here too.
    package static func task<T: Sendable>(_ operation: sending @escaping () async throws -> T) -> Task<T, any Error> {
        Task(executorPreference: shared, operation: operation)
    }
}
