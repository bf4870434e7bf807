/// Counts work in flight on worker threads, so one can wait until none is left (the project's replacement for
/// `DispatchGroup` and, with a count of one, for a semaphore that joins one thread).
public final class WorkCounter: Sendable {
    private let lock = ConditionLock()
    private nonisolated(unsafe) var pending = 0

    public init() {}

    /// One more piece of work started.
    public func enter() { lock.withLock { pending += 1 } }

    /// One piece of work finished.
    public func leave() {
        lock.withLock {
            pending -= 1
            if pending == 0 { lock.broadcast() }
        }
    }

    /// Blocks the calling thread until no work is in flight.
    public func waitUntilIdle() {
        lock.lock()
        while pending > 0 { lock.wait() }
        lock.unlock()
    }
}
