import Foundation

/// A real nginx serving a directory on a free 127.0.0.1 port, with its own temporary prefix and configuration.
/// Stopped by `stop()` or when released.
package final class Nginx: Sendable {
    /// One line of the access log.
    package struct LogEntry: Sendable, Equatable {
        package var method: String
        package var uri: String
        package var status: Int
        /// `$bytes_sent`: everything sent on the wire for this request, headers included.
        package var bytesSent: Int64
        /// `$body_bytes_sent`.
        package var bodyBytesSent: Int64
        package var range: String
        /// `$server_protocol`, e.g. `HTTP/1.1` or `HTTP/2.0`.
        package var proto: String
        /// The request's `Via` header (`-` when none): a proxy that forwarded it names itself there.
        package var via: String = "-"
    }

    package var port: UInt16 { server.port }
    package let prefix: TemporaryDirectory
    /// Serving https with `TestCertificates` (URLs use the certificate's host name, `localhost`).
    package let tls: TestCertificates?
    private let server: ServerProcess

    /// Starts nginx serving `root` at `/`. `limitRate` (bytes/s) slows every response; `locations` adds
    /// `location` blocks (or any server-level directives) verbatim. `http2` serves cleartext HTTP/2 (prior
    /// knowledge) instead of HTTP/1.1; with `tls`, https with the test CA's server certificate, and `http2`
    /// offers HTTP/2 through ALPN as public servers do. `http` adds http-level directives verbatim
    /// (`proxy_cache_path`, `upstream`).
    package init(
        root: String, limitRate: Int? = nil, locations: String = "", http2: Bool = false,
        tls: TestCertificates? = nil, http: String = ""
    ) throws {
        let prefix = try TemporaryDirectory("docsync-nginx")
        do {
            server = try ServerProcess(
                "nginx", executable: Self.executable,
                prepare: { port in
                    let config = prefix.appending("nginx.conf")
                    try Self.configuration(
                        prefix: prefix.path, root: root, port: port, limitRate: limitRate, locations: locations,
                        http2: http2, tls: tls, http: http
                    ).write(toFile: config, atomically: true, encoding: .utf8)
                    return ["-p", prefix.path, "-c", config, "-e", prefix.appending("error.log")]
                },
                diagnostics: { Self.read(prefix.appending("error.log")) })
        } catch {
            prefix.remove()
            throw error
        }
        self.prefix = prefix
        self.tls = tls
    }

    deinit { stop() }

    package func url(_ path: String) -> String {
        let authority = tls == nil ? "http://127.0.0.1" : "https://\(TestCertificates.host)"
        return "\(authority):\(port)/\(path.drop { $0 == "/" })"
    }

    /// Stops nginx and removes its prefix (idempotent).
    package func stop() {
        server.stop()
        prefix.remove()
    }

    /// The access log so far, oldest first.
    package func accessLog() -> [LogEntry] {
        Self.read(prefix.appending("access.log")).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 8, let status = Int(fields[2]), let sent = Int64(fields[3]),
                let body = Int64(fields[4])
            else { return nil }
            return LogEntry(
                method: fields[0], uri: fields[1], status: status, bytesSent: sent, bodyBytesSent: body,
                range: fields[5], proto: fields[6], via: fields[7])
        }
    }

    /// Waits until `condition` holds for the access log (nginx writes a line when a response ends), polling the
    /// log itself up to `timeout` seconds; returns the log as last read.
    @discardableResult
    package func waitForAccessLog(timeout: Double = 30, until condition: ([LogEntry]) -> Bool) -> [LogEntry] {
        let deadline = Date().addingTimeInterval(timeout)
        var log = accessLog()
        while !condition(log), Date() < deadline {
            usleep(10_000)
            log = accessLog()
        }
        return log
    }

    /// True when nginx is installed (scripts/bootstrap installs Debian's nginx-light): suites that need it say so.
    package static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    private static var executable: String {
        ["/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        } ?? "nginx"
    }

    private static func read(_ path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    private static func configuration(
        prefix: String, root: String, port: UInt16, limitRate: Int?, locations: String, http2: Bool,
        tls: TestCertificates?, http: String
    ) -> String {
        let listen = "listen 127.0.0.1:\(port)\(tls == nil ? "" : " ssl")\(http2 ? " http2" : "");"
        let certificates =
            tls.map { "ssl_certificate \($0.certificateFile);\n ssl_certificate_key \($0.keyFile);" } ?? ""
        let temp = "\(prefix)/tmp"
        try? FileManager.default.createDirectory(atPath: temp, withIntermediateDirectories: true)
        return """
            daemon off;
            master_process off;
            worker_processes 1;
            pid \(prefix)/nginx.pid;
            error_log \(prefix)/error.log warn;
            events { worker_connections 256; }
            http {
                log_format counts "$request_method\\t$request_uri\\t$status\\t$bytes_sent\\t$body_bytes_sent\\t$http_range\\t$server_protocol\\t$http_via";
                access_log \(prefix)/access.log counts;
                client_body_temp_path \(temp);
                proxy_temp_path \(temp);
                fastcgi_temp_path \(temp);
                uwsgi_temp_path \(temp);
                scgi_temp_path \(temp);
                default_type application/octet-stream;
                sendfile on;
                \(http)
                server {
                    \(listen)
                    \(certificates)
                    root \(root);
                    \(limitRate.map { "limit_rate \($0);" } ?? "")
                    \(locations)
                }
            }
            """
    }
}
