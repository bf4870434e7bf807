extension BlockingPool {
    /// Runs `body(0)`, …, `body(parts - 1)` and returns once all have run: part 0 on the calling thread, the others
    /// queued for the pool's threads. A queued part that no thread has started by the time the caller is done with
    /// its own is run by the caller too, so the caller waits only for parts already running (which end on their
    /// own), never for the queue: no deadlock even when every thread of the pool is such a caller, and never slower
    /// than running the parts in turn by more than the queueing. Each part runs exactly once.
    package func split(_ parts: Int, _ body: @escaping @Sendable (_ part: Int) -> Void) {
        guard parts > 1 else {
            if parts == 1 { body(0) }
            return
        }
        let claims = SplitClaims(parts)
        for part in 1..<parts {
            // Refused (queue full, no thread): the job never runs, and the caller claims the part below.
            _ = submit {
                guard claims.claim(part) else { return }
                body(part)
                claims.finish(part)
            }
        }
        body(0)
        claims.finish(0)
        for part in 1..<parts where claims.claim(part) {
            body(part)
            claims.finish(part)
        }
        claims.waitForAll()
    }
}

/// Which parts of a `BlockingPool.split` have been started and finished, and the wait for the last.
///
/// `@unchecked Sendable`: `started` and `finished` are read and written only while holding `lock`.
private final class SplitClaims: @unchecked Sendable {
    private let lock = ConditionLock()
    private var started: [Bool]
    private var finished = 0

    init(_ parts: Int) {
        started = [Bool](repeating: false, count: parts)
        started[0] = true
    }

    /// Whether the caller is the first to ask for `part` (and so must run it).
    func claim(_ part: Int) -> Bool {
        lock.withLock {
            if started[part] { return false }
            started[part] = true
            return true
        }
    }

    func finish(_ part: Int) {
        lock.withLock {
            finished += 1
            if finished == started.count { lock.broadcast() }
        }
    }

    /// Returns once every part has finished (call after claiming every part not started).
    func waitForAll() {
        lock.withLock {
            while finished < started.count { lock.wait() }
        }
    }
}
