import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real HTTP proxy (Debian's tinyproxy) on a free 127.0.0.1 port, with its own configuration and log in a
/// temporary folder. It adds `Via: 1.1 docsync-test-proxy` to the requests it forwards and logs each request
/// (`GET http://…`, `CONNECT host:port`). Stopped by `stop()` or when released.
package final class Tinyproxy: Sendable {
    package static let viaName = "docsync-test-proxy"
    package var port: UInt16 { server.port }
    package let prefix: TemporaryDirectory
    private let server: ServerProcess

    /// True when the `tinyproxy` executable is installed (scripts/bootstrap installs it).
    package static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    package init() throws {
        let prefix = try TemporaryDirectory("docsync-tinyproxy")
        do {
            server = try ServerProcess(
                "tinyproxy", executable: Self.executable,
                prepare: { port in
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
                    return ["-d", "-c", prefix.appending("tinyproxy.conf")]
                },
                diagnostics: { Self.log(prefix) })
        } catch {
            prefix.remove()
            throw error
        }
        self.prefix = prefix
    }

    deinit { stop() }

    /// The proxy's URL, for `proxy` / `http_proxy` / `https_proxy`.
    package var url: String { "http://127.0.0.1:\(port)" }

    /// The request lines tinyproxy logged, e.g. `GET http://127.0.0.1:8080/f.atom HTTP/1.1` or
    /// `CONNECT localhost:8443 HTTP/1.1`.
    package func requests() -> [String] {
        Self.log(prefix).split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "]: Request (file descriptor ") else { return nil }
            guard let colon = line[range.upperBound...].range(of: "): ") else { return nil }
            return String(line[colon.upperBound...])
        }
    }

    /// Stops tinyproxy and removes its folder (idempotent).
    package func stop() {
        server.stop()
        prefix.remove()
    }

    private static func log(_ prefix: TemporaryDirectory) -> String {
        (try? String(contentsOfFile: prefix.appending("tinyproxy.log"), encoding: .utf8)) ?? ""
    }

    private static var executable: String {
        ["/usr/bin/tinyproxy", "/usr/sbin/tinyproxy", "/usr/local/bin/tinyproxy"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        } ?? "/usr/bin/tinyproxy"
    }
}
