extension WorkerThread {
    /// Runs blocking `body` on a thread of its own and resumes the caller with its result: the one way docsync
    /// awaits a blocking call (flock, a child process, an extraction) without holding a cooperative-pool thread.
    package static func run<T: Sendable, E: Error>(
        name: String, stackSize: Int = 256 << 10, _ body: @escaping @Sendable () throws(E) -> T
    ) async throws(E) -> T {
        let result: Result<T, E> = await withCheckedContinuation { continuation in
            start(name: name, stackSize: stackSize) { continuation.resume(returning: Result(catching: body)) }
        }
        return try result.get()
    }
}
