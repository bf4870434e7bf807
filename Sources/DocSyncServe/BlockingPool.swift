import DocSyncSupport
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A fixed set of threads for the server's blocking work (page reads, searches) with a bounded queue, instead of a
/// thread started per request: at most `threads` jobs run at once, up to `queueLimit` more wait in order, and
/// beyond that ``run(_:)`` refuses at once (the route answers 503), so a burst costs neither a thread each nor an
/// unbounded backlog. The threads end at ``shutdown()`` once the queue is drained.
///
/// `@unchecked Sendable`: `jobs`, `head` and `stopping` are read and written only while holding `lock`.
final class BlockingPool: @unchecked Sendable {
    private let lock = ConditionLock()
    /// Guarded by `lock`.
    private var jobs: [@Sendable () -> Void] = []
    private var head = 0
    private var stopping = false
    private let queueLimit: Int
    private let rejections = Atomic<Int>(0)

    /// The number of online cores (at least 1).
    static var cores: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    /// Starts `threads` threads named `name` with `stackSize` stacks.
    init(name: String, threads: Int, queueLimit: Int, stackSize: Int = 256 << 10) {
        self.queueLimit = max(0, queueLimit)
        for _ in 0..<max(1, threads) {
            WorkerThread.start(name: name, stackSize: stackSize) { [self] in work() }
        }
    }

    /// Runs `body` on one of the pool's threads and resumes the caller with its result; `nil` (without running
    /// `body`) when `queueLimit` jobs are already waiting or the pool is shut down.
    func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T? {
        await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
            if !submit({ continuation.resume(returning: body()) }) { continuation.resume(returning: nil) }
        }
    }

    /// Queues `job` for one of the pool's threads without waiting for it; false (without running `job`) when
    /// `queueLimit` jobs are already waiting or the pool is shut down.
    func submit(_ job: @escaping @Sendable () -> Void) -> Bool {
        let accepted = lock.withLock { () -> Bool in
            guard !stopping, jobs.count - head < queueLimit else { return false }
            jobs.append(job)
            lock.broadcast()
            return true
        }
        if !accepted { rejections.add(1, ordering: .relaxed) }
        return accepted
    }

    /// Why ``run(before:_:)`` did not run a job.
    enum Refusal: Error, Equatable {
        /// The queue was full (or the pool shut down): answer 503 with `Retry-After`.
        case busy
        /// The job waited in the queue past its deadline; it was dropped without running.
        case timedOut
    }

    /// ``run(_:)`` with a deadline checked when a thread takes the job: a job still queued at `deadline` is dropped
    /// (the request's timeout, without a timer task per request; a job that started runs to its end).
    func run<T: Sendable>(before deadline: ContinuousClock.Instant, _ body: @escaping @Sendable () -> T) async
        -> Result<T, Refusal>
    {
        let outcome = await run { () -> Result<T, Refusal> in
            ContinuousClock.now > deadline ? .failure(.timedOut) : .success(body())
        }
        return outcome ?? .failure(.busy)
    }

    /// Jobs refused because the queue was full, since the pool started.
    var rejected: Int { rejections.load(ordering: .relaxed) }

    /// Jobs accepted and not yet started.
    var waiting: Int { lock.withLock { jobs.count - head } }

    /// Lets the threads end once the jobs already queued have run; later ``run(_:)`` calls give `nil`.
    func shutdown() {
        lock.withLock {
            stopping = true
            lock.broadcast()
        }
    }

    private func work() {
        while true {
            lock.lock()
            while head == jobs.count, !stopping { lock.wait() }
            if head == jobs.count {
                lock.unlock()
                return
            }
            let job = jobs[head]
            head += 1
            if head >= 64, head * 2 >= jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            lock.unlock()
            job()
        }
    }
}
