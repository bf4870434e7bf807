import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real HTTP proxy (Debian's tinyproxy) on a free 127.0.0.1 port, with its own configuration and log in a
/// temporary folder. It adds `Via: 1.1 docsync-test-proxy` to the requests it forwards and logs each request
/// (`GET http://…`, `CONNECT host:port`). Stopped by `stop()` or when released.
public final class Tinyproxy: Sendable {
    public static let viaName = "docsync-test-proxy"
    public let port: UInt16
    public let prefix: TemporaryDirectory
    private let process: Process

    /// True when the `tinyproxy` executable is installed (scripts/bootstrap installs it).
    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    public init() throws {
        let prefix = try TemporaryDirectory("docsync-tinyproxy")
        var lastError = TestServerError("tinyproxy did not start")
        for _ in 0..<5 {
            let port = try Loopback.freePort()
            try """
            Port \(port)
            Listen 127.0.0.1
            Timeout 60
            LogFile "\(prefix.appending("tinyproxy.log"))"
            LogLevel Info
            MaxClients 32
            Allow 127.0.0.1
            ViaProxyName "\(Self.viaName)"
            """.write(toFile: prefix.appending("tinyproxy.conf"), atomically: true, encoding: .utf8)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Self.executable)
            process.arguments = ["-d", "-c", prefix.appending("tinyproxy.conf")]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning, !Loopback.isListening(port), Date() < deadline { usleep(20_000) }
            if process.isRunning, Loopback.isListening(port) {
                self.port = port
                self.prefix = prefix
                self.process = process
                return
            }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            let log = (try? String(contentsOfFile: prefix.appending("tinyproxy.log"), encoding: .utf8)) ?? ""
            lastError = TestServerError("tinyproxy did not start: \(log)")
        }
        prefix.remove()
        throw lastError
    }

    deinit { stop() }

    /// The proxy's URL, for `proxy` / `http_proxy` / `https_proxy`.
    public var url: String { "http://127.0.0.1:\(port)" }

    /// The request lines tinyproxy logged, e.g. `GET http://127.0.0.1:8080/f.atom HTTP/1.1` or
    /// `CONNECT localhost:8443 HTTP/1.1`.
    public func requests() -> [String] {
        let log = (try? String(contentsOfFile: prefix.appending("tinyproxy.log"), encoding: .utf8)) ?? ""
        return log.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "]: Request (file descriptor ") else { return nil }
            guard let colon = line[range.upperBound...].range(of: "): ") else { return nil }
            return String(line[colon.upperBound...])
        }
    }

    /// Stops tinyproxy and removes its folder (idempotent).
    public func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        prefix.remove()
    }

    private static var executable: String {
        ["/usr/bin/tinyproxy", "/usr/sbin/tinyproxy", "/usr/local/bin/tinyproxy"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        } ?? "/usr/bin/tinyproxy"
    }
}
