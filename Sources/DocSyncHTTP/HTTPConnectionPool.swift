import Synchronization

/// Kept connections shared by many short requests to a few origins (feed checks: a thousand feeds on one host cost
/// a few connections, not a thousand TCP and TLS handshakes). `checkout` hands out an idle slot of the URL's
/// origin (scheme, credentials, host and port) or a new one, `checkin` puts it back; at most `idlePerOrigin` slots
/// are kept per origin (a slot let go closes its connection). A slot is used by one request at a time.
package final class HTTPConnectionPool: Sendable {
    private let idle = Mutex<[String: [HTTPConnection]]>([:])
    private let idlePerOrigin: Int

    package init(idlePerOrigin: Int = 8) { self.idlePerOrigin = idlePerOrigin }

    /// A slot for `url`: an idle one of its origin, else a new one (a URL without an origin gets a new one).
    package func checkout(for url: String) -> HTTPConnection {
        guard let origin = Self.origin(of: url) else { return HTTPConnection(byOrigin: true) }
        return idle.withLock { $0[origin]?.popLast() } ?? HTTPConnection(byOrigin: true)
    }

    /// Puts `connection`, last used for `url`, back for the next request to that origin.
    package func checkin(_ connection: HTTPConnection, for url: String) {
        guard let origin = Self.origin(of: url) else { return }
        idle.withLock { idle in
            if idle[origin, default: []].count < idlePerOrigin { idle[origin, default: []].append(connection) }
        }
    }

    /// True when both URLs have the same origin (`origin(of:)`), and have one.
    package static func sameOrigin(_ a: String, _ b: String) -> Bool {
        guard let origin = origin(of: a) else { return false }
        return origin == Self.origin(of: b)
    }

    /// `scheme://authority` of an http(s) URL, the scheme and host lowercased (credentials and port as written):
    /// nil for any other URL. `http://Example.com/a` and `http://example.com/b` share one; `http://u@h/` and
    /// `http://h/`, or `http://h/` and `http://h:8080/`, do not.
    package static func origin(of url: String) -> String? {
        let lowered = url.prefix(8).lowercased()
        let scheme: String
        if lowered.hasPrefix("http://") {
            scheme = "http"
        } else if lowered.hasPrefix("https://") {
            scheme = "https"
        } else {
            return nil
        }
        let rest = url.dropFirst(scheme.count + 3)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !authority.isEmpty else { return nil }
        let at = authority.lastIndex(of: "@")
        let credentials = at.map { authority[...$0] } ?? ""
        let hostPort = at.map { authority[authority.index(after: $0)...] } ?? authority
        return "\(scheme)://\(credentials)\(hostPort.lowercased())"
    }
}
