/// Counts work in flight on worker threads, so one can wait until none is left (the project's replacement for
/// `DispatchGroup` and, with a count of one, for a semaphore that joins one thread).
///
/// `@unchecked Sendable`: `pending` is read and written only while holding `lock` (a condition lock, since
/// `waitUntilIdle` sleeps until it reaches zero).
package final class WorkCounter: @unchecked Sendable {
    private let lock = ConditionLock()
    private var pending = 0

    package init() {}

    /// One more piece of work started.
    package func enter() { lock.withLock { pending += 1 } }

    /// One piece of work finished.
    package func leave() {
        lock.withLock {
            pending -= 1
            if pending == 0 { lock.broadcast() }
        }
    }

    /// Blocks the calling thread until no work is in flight.
    package func waitUntilIdle() {
        lock.lock()
        while pending > 0 { lock.wait() }
        lock.unlock()
    }
}
