import CDocSyncSys

#if canImport(Glibc)
    import Glibc
#endif

/// Starts detached pthreads for blocking work that must stay off Swift's cooperative pool (libcurl transfers,
/// `pwrite`/`fdatasync` loops). Without Foundation's `Thread`, whose run loop machinery costs memory.
package enum WorkerThread {
    /// Runs `body` on a new detached thread named `name` (15 bytes are kept) with a `stackSize` stack.
    package static func start(name: String, stackSize: Int = 256 << 10, _ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Job(name: name, body: body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        pthread_attr_setstacksize(&attributes, max(stackSize, Int(PTHREAD_STACK_MIN)))
        var thread = pthread_t()
        let code = pthread_create(
            &thread, &attributes,
            { raw in
                let job = Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue()
                ds_set_thread_name(job.name)
                job.body()
                return nil
            }, box)
        precondition(code == 0, "pthread_create failed: \(code)")
    }

    private final class Job {
        let name: String
        let body: @Sendable () -> Void

        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }
}
