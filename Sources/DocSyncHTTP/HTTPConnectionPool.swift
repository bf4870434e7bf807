import Synchronization

/// Kept connections shared by many short requests to a few origins (feed checks: a thousand feeds on one host cost
/// a few connections, not a thousand TCP and TLS handshakes). `checkout` hands out the most recently used idle slot
/// of the URL's origin (scheme, credentials, host and port) or a new one, `checkin` puts it back. Limits: at most
/// `idlePerOrigin` idle slots an origin and `idleTotal` in all (the oldest let go first), none idle longer than
/// `idleLimit` — checked at every checkout and checkin, and by a sweep that runs while slots are idle, so a pool
/// nobody asks any more closes its connections `idleLimit` after their last use instead of keeping them (and their
/// libcurl handles and buffers) for the life of the process. A slot let go closes its connection. A slot is used by
/// one request at a time. What libcurl knows
/// stays with it: a connection the server closed (`Connection: close`) or a transfer that failed is not reused (the
/// transport keeps a handle only after a complete transfer; `Curl.perform`).
package final class HTTPConnectionPool: Sendable {
    private struct Idle {
        var origin: String
        var connection: HTTPConnection
        var since: ContinuousClock.Instant
    }

    private struct State {
        var idle: [Idle] = []
        /// A sweep task is waiting for the oldest idle slot to expire.
        var sweeping = false
    }

    private let state = Mutex(State())
    private let idlePerOrigin: Int
    private let idleTotal: Int
    private let idleLimit: Duration

    package init(idlePerOrigin: Int = 8, idleTotal: Int = 32, idleLimit: Duration = .seconds(30)) {
        self.idlePerOrigin = idlePerOrigin
        self.idleTotal = idleTotal
        self.idleLimit = idleLimit
    }

    /// Idle slots now (tests).
    package var idleCount: Int { state.withLock { $0.idle.count } }

    /// A slot for `url`: the newest idle one of its origin, else a new one (a URL without an origin gets a new one).
    /// `now` is the clock's (tests pass others).
    package func checkout(for url: String, now: ContinuousClock.Instant = .now) -> HTTPConnection {
        guard let origin = Self.origin(of: url) else { return HTTPConnection(byOrigin: true) }
        let (found, expired) = state.withLock { state -> (HTTPConnection?, [Idle]) in
            let expired = expire(&state.idle, now: now)
            guard let index = state.idle.lastIndex(where: { $0.origin == origin }) else { return (nil, expired) }
            return (state.idle.remove(at: index).connection, expired)
        }
        _ = expired  // released here, outside the lock: each closes its connection
        return found ?? HTTPConnection(byOrigin: true)
    }

    /// Puts `connection`, last used for `url`, back for the next request to that origin, within the limits.
    package func checkin(_ connection: HTTPConnection, for url: String, now: ContinuousClock.Instant = .now) {
        guard let origin = Self.origin(of: url) else { return }
        let (dropped, sweep) = state.withLock { state -> ([Idle], Bool) in
            var dropped = expire(&state.idle, now: now)
            state.idle.append(Idle(origin: origin, connection: connection, since: now))
            if state.idle.count(where: { $0.origin == origin }) > idlePerOrigin,
                let oldest = state.idle.firstIndex(where: { $0.origin == origin })
            {
                dropped.append(state.idle.remove(at: oldest))
            }
            if state.idle.count > idleTotal { dropped.append(state.idle.removeFirst()) }
            defer { state.sweeping = true }
            return (dropped, !state.sweeping)
        }
        _ = dropped
        if sweep { Self.startSweep(self) }
    }

    /// Lets go the slots idle longer than `idleLimit` at `now` (closing their connections); how many. The sweep
    /// does this on its own; tests call it with other clocks.
    @discardableResult
    package func sweep(now: ContinuousClock.Instant = .now) -> Int {
        let expired = state.withLock { expire(&$0.idle, now: now) }
        return expired.count
    }

    /// While slots are idle, one task waits until the oldest of them expires, lets it go, and waits for the next;
    /// it ends when none is left (the next checkin starts another) or the pool is gone (it holds the pool weakly).
    private static func startSweep(_ pool: HTTPConnectionPool) {
        Task.detached(priority: .background) { [weak pool] in
            while let next = pool?.nextSweep() {
                try? await Task.sleep(until: next, clock: .continuous)
            }
        }
    }

    /// Lets go what expired by now; when the next slot expires (nil: no slot is idle, and the sweep ends).
    private func nextSweep() -> ContinuousClock.Instant? {
        let now = ContinuousClock.now
        let (expired, next) = state.withLock { state -> ([Idle], ContinuousClock.Instant?) in
            let expired = expire(&state.idle, now: now)
            guard let oldest = state.idle.first else {
                state.sweeping = false
                return (expired, nil)
            }
            return (expired, oldest.since + idleLimit + .milliseconds(1))
        }
        _ = expired  // released here, outside the lock: each closes its connection
        return next
    }

    /// Removes and returns the slots idle longer than `idleLimit` (the oldest come first).
    private func expire(_ idle: inout [Idle], now: ContinuousClock.Instant) -> [Idle] {
        let stale = idle.prefix { now - $0.since > idleLimit }.count
        guard stale > 0 else { return [] }
        defer { idle.removeFirst(stale) }
        return Array(idle.prefix(stale))
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
