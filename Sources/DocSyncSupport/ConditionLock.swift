#if canImport(Glibc)
    import Glibc
#endif

/// A pthread mutex with one condition variable, for the download pipeline's threads (no Foundation needed).
///
/// `@unchecked Sendable`: the mutex and condition live at stable heap addresses and are only used through the
/// pthread calls, which are thread-safe by definition.
public final class ConditionLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }
    public func unlock() { pthread_mutex_unlock(mutex) }

    /// Waits for a broadcast; call with the lock held, and re-check the awaited state afterwards.
    public func wait() { pthread_cond_wait(condition, mutex) }

    public func broadcast() { pthread_cond_broadcast(condition) }

    /// Runs `body` with the lock held.
    public func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
