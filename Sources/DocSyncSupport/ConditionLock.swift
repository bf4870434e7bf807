#if canImport(Glibc)
    import Glibc
#endif

/// A pthread mutex with one or more condition variables, for the download pipeline's threads (no Foundation
/// needed). Several conditions let each thread sleep on its own, so waking one does not wake the others.
///
/// `@unchecked Sendable`: the mutex and conditions live at stable heap addresses and are only used through the
/// pthread calls, which are thread-safe by definition.
package final class ConditionLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let conditions: UnsafeMutablePointer<pthread_cond_t>
    private let count: Int

    package init(conditions: Int = 1) {
        count = max(1, conditions)
        self.conditions = .allocate(capacity: count)
        pthread_mutex_init(mutex, nil)
        for index in 0..<count { pthread_cond_init(self.conditions + index, nil) }
    }

    deinit {
        for index in 0..<count { pthread_cond_destroy(conditions + index) }
        pthread_mutex_destroy(mutex)
        conditions.deallocate()
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }
    package func unlock() { pthread_mutex_unlock(mutex) }

    /// Waits on condition `index`; call with the lock held, and re-check the awaited state afterwards.
    package func wait(on index: Int = 0) { pthread_cond_wait(conditions + index, mutex) }

    /// ``wait(on:)`` for at most `seconds`; false when the time ran out first (re-check the awaited state anyway).
    package func wait(seconds: Double, on index: Int = 0) -> Bool {
        var deadline = timespec()
        clock_gettime(CLOCK_REALTIME, &deadline)  // the condition's clock (default attributes)
        let nanoseconds = Int(deadline.tv_nsec) + Int(max(0, seconds) * 1e9)
        deadline.tv_sec += nanoseconds / 1_000_000_000
        deadline.tv_nsec = nanoseconds % 1_000_000_000
        return pthread_cond_timedwait(conditions + index, mutex, &deadline) != ETIMEDOUT
    }

    /// Wakes the waiters of condition `index`.
    package func broadcast(_ index: Int = 0) { pthread_cond_broadcast(conditions + index) }

    /// Wakes one waiter of condition `index`.
    package func signal(_ index: Int = 0) { pthread_cond_signal(conditions + index) }

    /// Wakes the waiters of every condition.
    package func broadcastAll() {
        for index in 0..<count { pthread_cond_broadcast(conditions + index) }
    }

    /// Runs `body` with the lock held.
    package func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
