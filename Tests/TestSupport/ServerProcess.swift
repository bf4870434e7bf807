import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A server a test runs as a child process (nginx, tinyproxy) on a free 127.0.0.1 port: started, waited for until
/// the port accepts connections, started again on another port when it lost the race for one, killed by `stop()`.
package struct ServerProcess: Sendable {
    package let port: UInt16
    private let process: Process

    /// Starts `executable` with the arguments `prepare(port)` returns (it writes the server's configuration for
    /// that port first), on up to `attempts` free ports, each given `timeout` seconds to accept connections. When
    /// none did, the error says `name` did not start and quotes `diagnostics()` (the server's log).
    package init(
        _ name: String, executable: String, attempts: Int = 5, timeout: Double = 10,
        prepare: (UInt16) throws -> [String], diagnostics: () -> String
    ) throws {
        for _ in 0..<attempts {
            let port = try Loopback.freePort()
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = try prepare(port)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let deadline = Date().addingTimeInterval(timeout)
            while process.isRunning, !Loopback.isListening(port), Date() < deadline { usleep(20_000) }
            if process.isRunning, Loopback.isListening(port) {
                self.port = port
                self.process = process
                return
            }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        throw TestServerError("\(name) did not start: \(diagnostics())")
    }

    /// Kills the server (SIGKILL: a server started from a test runner may have SIGTERM blocked through the
    /// inherited signal mask) and reaps it; idempotent.
    package func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}
