import CDocSyncSys

#if canImport(Glibc)
    import Glibc
#endif

/// Starts detached pthreads for blocking work that must stay off Swift's cooperative pool (libcurl transfers,
/// `pwrite`/`fdatasync` loops). Without Foundation's `Thread`, whose run loop machinery costs memory.
package enum WorkerThread {
    /// Runs `body` on a new detached thread named `name` (15 bytes are kept) with a `stackSize` stack; a thread
    /// that cannot be created traps (see ``tryStart(name:stackSize:_:)`` for callers that can go on without it).
    package static func start(name: String, stackSize: Int = 256 << 10, _ body: @escaping @Sendable () -> Void) {
        do {
            try tryStart(name: name, stackSize: stackSize, body)
        } catch {
            preconditionFailure("\(error)")
        }
    }

    /// ``start(name:stackSize:_:)`` that throws when the system refuses a thread (`pthread_create` fails: the
    /// process's or the user's thread limit, or memory), without running `body`.
    package static func tryStart(
        name: String, stackSize: Int = 256 << 10, _ body: @escaping @Sendable () -> Void
    ) throws(ThreadStartError) {
        let job = Unmanaged.passRetained(Job(name: name, body: body))
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
            }, job.toOpaque())
        guard code == 0 else {
            job.release()
            throw ThreadStartError(name: name, code: code)
        }
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
