#if canImport(Glibc)
    import Glibc
#endif

/// A TCP socket listening on 127.0.0.1 at a free port that never answers: it only counts who connected.
/// A connection completes in the kernel's backlog without `accept`, so `connections()` sees every attempt.
package final class LoopbackListener {
    package let port: Int
    private let descriptor: Int32

    package init() throws {
        let (descriptor, port) = try Loopback.listen()
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        self.descriptor = descriptor
        self.port = Int(port)
    }

    deinit { close(descriptor) }

    /// Accepts (and closes) every pending connection; returns how many there were.
    package func connections() -> Int {
        var count = 0
        while true {
            let client = accept(descriptor, nil, nil)
            guard client >= 0 else { return count }
            close(client)
            count += 1
        }
    }
}
