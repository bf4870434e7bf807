import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real nginx serving one folder on 127.0.0.1 at a free port, with a temporary prefix and config.
/// `stop()` kills it and removes the prefix (call it in `defer`).
final class FeedNginx {
    let port: Int
    private let process: Process
    private let prefix: TemporaryDirectoryForFeeds

    init(serving root: String) throws {
        prefix = try TemporaryDirectoryForFeeds()
        var lastError: (any Error)?
        for _ in 0..<5 {  // a free port can be taken between probing and nginx's bind: try a few
            let port = try Self.freePort()
            let config = """
                daemon off; master_process off; worker_processes 1;
                pid \(prefix.path)/nginx.pid; error_log \(prefix.path)/error.log;
                events { worker_connections 64; }
                http {
                    access_log off; client_body_temp_path \(prefix.path)/body; proxy_temp_path \(prefix.path)/proxy;
                    fastcgi_temp_path \(prefix.path)/fastcgi; uwsgi_temp_path \(prefix.path)/uwsgi;
                    scgi_temp_path \(prefix.path)/scgi;
                    server { listen 127.0.0.1:\(port); root \(root); }
                }
                """
            let configPath = prefix.write("nginx.conf", config)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
            process.arguments = ["-p", prefix.path, "-c", configPath, "-e", "\(prefix.path)/error.log"]
            try process.run()
            if Self.waitUntilListening(port: port, process: process) {
                self.port = port
                self.process = process
                return
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            lastError = NginxError(
                log: (try? String(contentsOfFile: "\(prefix.path)/error.log", encoding: .utf8)) ?? "")
        }
        prefix.remove()
        throw lastError ?? NginxError(log: "")
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)/\(path)" }

    /// SIGKILL: in single-process mode nginx keeps the signal mask it inherits from the test runner, where
    /// SIGTERM may be blocked.
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        prefix.remove()
    }

    struct NginxError: Error { let log: String }

    private static func freePort() throws -> Int {
        let listener = try LoopbackListener()
        return listener.port  // closed when `listener` goes away, before nginx binds
    }

    private static func waitUntilListening(port: Int, process: Process) -> Bool {
        for _ in 0..<200 {
            guard process.isRunning else { return false }
            let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            close(client)
            if connected == 0 { return true }
            usleep(25_000)
        }
        return false
    }
}
