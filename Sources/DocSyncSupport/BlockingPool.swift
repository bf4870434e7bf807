import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A bounded set of threads for blocking work (searches, page reads, index preparation) with a bounded queue,
/// instead of a thread started per call: at most `threads` jobs run at once, up to `queueLimit` more wait in order,
/// and beyond that a job is refused at once (`serve` answers 503), so a burst costs neither a thread each nor an
/// unbounded backlog. Threads are started as jobs need them, up to `threads`, and then kept; they end at
/// ``shutdown()`` once the queue is drained, or, with an `idleTimeout`, once they found no job for that long (the
/// next job starts a thread again). A thread the system refuses is a ``Refusal/noThread(_:)`` for the jobs
/// that no thread can run, never a trap.
///
/// ``shared`` is the library's pool (`DocsetIndex` searches and index preparation, full-text searches,
/// `InstalledDocset` page reads): `max(2, cores)` threads, an unbounded queue.
///
/// Only jobs that finish on their own belong here — never one that waits for another job of the pool (the pool's
/// threads may all be that one's waiters), a lock held by a sync, or a child process: those keep
/// `WorkerThread.run`.
///
/// `@unchecked Sendable`: `jobs`, `head`, `started`, `idle` and `stopping` are read and written only while holding
/// `lock`.
package final class BlockingPool: @unchecked Sendable {
    /// A queued job: run with `nil`, or told why it will not run.
    private typealias Job = @Sendable (Refusal?) -> Void

    private let lock = ConditionLock()
    /// Guarded by `lock`.
    private var jobs: [Job] = []
    private var head = 0
    private var started = 0
    private var idle = 0
    private var stopping = false
    private let name: String
    private let stackSize: Int
    private let queueLimit: Int
    private let idleTimeout: Double?
    private let rejections = Atomic<Int>(0)
    /// The most threads the pool runs.
    package let threads: Int

    /// The number of online cores (at least 1).
    package static var cores: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    /// The library's pool for blocking work: `max(2, cores)` threads named `docsync-pool` with 8 MiB stacks (a
    /// page's visible text is parsed by libxml2 on them), an unbounded queue; never shut down.
    package static let shared = BlockingPool(
        name: "docsync-pool", threads: max(2, cores), queueLimit: .max, stackSize: 8 << 20)

    /// A pool of up to `threads` threads named `name` with `stackSize` stacks, queueing up to `queueLimit` jobs; a
    /// thread idle for `idleTimeout` seconds ends (nil: kept until ``shutdown()``).
    package init(name: String, threads: Int, queueLimit: Int, stackSize: Int = 256 << 10, idleTimeout: Double? = nil) {
        self.name = name
        self.threads = max(1, threads)
        self.queueLimit = max(0, queueLimit)
        self.stackSize = stackSize
        self.idleTimeout = idleTimeout
    }

    /// Why a job was not run.
    package enum Refusal: Error, Equatable, CustomStringConvertible {
        /// The queue was full (or the pool shut down): `serve` answers 503 with `Retry-After`.
        case busy
        /// The job waited in the queue past its deadline; it was dropped without running.
        case timedOut
        /// The pool has no thread and the system refused to start one.
        case noThread(ThreadStartError)

        /// In words, for an error message.
        package var description: String {
            switch self {
            case .busy: "too much blocking work queued"
            case .timedOut: "queued past its deadline"
            case .noThread(let error): error.description
            }
        }
    }

    /// Runs `body` on one of the pool's threads and resumes the caller with its result, or throws why it did not
    /// run `body`.
    package func perform<T: Sendable>(_ body: @escaping @Sendable () -> T) async throws(Refusal) -> T {
        // Unchecked: `enqueue` calls the job exactly once (run, or told why not), and a checked continuation's
        // bookkeeping is one more allocation on the caller's cooperative thread per call.
        let outcome = await withUnsafeContinuation { (continuation: UnsafeContinuation<Result<T, Refusal>, Never>) in
            enqueue { refusal in continuation.resume(returning: refusal.map { .failure($0) } ?? .success(body())) }
        }
        return try outcome.get()
    }

    /// ``perform(_:)`` for a throwing `body`: its error, or the pool's refusal made one by `refused`.
    package func perform<T: Sendable, E: Error>(
        refused: @Sendable (Refusal) -> E, _ body: @escaping @Sendable () throws(E) -> T
    ) async throws(E) -> T {
        let result: Result<T, E>
        do {
            result = try await perform { Result(catching: body) }
        } catch {
            throw refused(error)
        }
        return try result.get()
    }

    /// ``perform(_:)`` that gives `nil` (without running `body`) when the job is refused.
    package func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T? {
        try? await perform(body)
    }

    /// Queues `job` for one of the pool's threads without waiting for it; false (without running `job`) when
    /// `queueLimit` jobs are already waiting, the pool is shut down, or no thread can run it.
    package func submit(_ job: @escaping @Sendable () -> Void) -> Bool {
        enqueue { refusal in if refusal == nil { job() } }
    }

    /// ``run(_:)`` with a deadline checked when a thread takes the job: a job still queued at `deadline` is dropped
    /// (the request's timeout, without a timer task per request; a job that started runs to its end).
    package func run<T: Sendable>(before deadline: ContinuousClock.Instant, _ body: @escaping @Sendable () -> T) async
        -> Result<T, Refusal>
    {
        do {
            return try await perform { () -> Result<T, Refusal> in
                ContinuousClock.now > deadline ? .failure(.timedOut) : .success(body())
            }
        } catch {
            return .failure(error)
        }
    }

    /// Jobs refused because the queue was full, since the pool started.
    package var rejected: Int { rejections.load(ordering: .relaxed) }

    /// Jobs accepted and not yet started.
    package var waiting: Int { lock.withLock { jobs.count - head } }

    /// The threads started and still running.
    package var running: Int { lock.withLock { started } }

    /// Lets the threads end once the jobs already queued have run; later jobs are refused.
    package func shutdown() {
        lock.withLock {
            stopping = true
            lock.broadcast()
        }
    }

    /// Queues `job` and starts a thread when the queued jobs outnumber the idle threads and the pool has fewer than
    /// `threads`. When that start fails and no thread is left to run the queue, every queued job is told so.
    @discardableResult
    private func enqueue(_ job: @escaping Job) -> Bool {
        let (accepted, startThread) = lock.withLock { () -> (Bool, Bool) in
            guard !stopping, jobs.count - head < queueLimit else { return (false, false) }
            jobs.append(job)
            let more = jobs.count - head > idle && started < threads
            if more { started += 1 }
            if idle > 0 { lock.signal() }
            return (true, more)
        }
        guard accepted else {
            rejections.add(1, ordering: .relaxed)
            job(.busy)
            return false
        }
        guard startThread else { return true }
        do {
            try WorkerThread.tryStart(name: name, stackSize: stackSize) { [self] in work() }
            return true
        } catch {
            let orphans = lock.withLock { () -> [Job] in
                started -= 1
                guard started == 0 else { return [] }
                defer {
                    jobs.removeAll()
                    head = 0
                }
                return Array(jobs[head...])
            }
            for orphan in orphans { orphan(.noThread(error)) }
            return orphans.isEmpty
        }
    }

    private func work() {
        while true {
            lock.lock()
            var timedOut = false
            while head == jobs.count, !stopping, !timedOut {
                idle += 1
                if let idleTimeout { timedOut = !lock.wait(seconds: idleTimeout) } else { lock.wait() }
                idle -= 1
            }
            if head == jobs.count {  // stopping, or idle too long: a later job starts a thread again
                started -= 1
                lock.unlock()
                return
            }
            let job = jobs[head]
            jobs[head] = { _ in }  // what the job holds goes with it, not when the queue is next compacted
            head += 1
            if head >= 64, head * 2 >= jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            lock.unlock()
            job(nil)
        }
    }
}
