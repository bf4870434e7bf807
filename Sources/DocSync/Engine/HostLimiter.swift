/// At most `limit` concurrent holders per key (a host): an async semaphore per key, FIFO.
actor HostLimiter {
    private let limit: Int
    private var active: [String: Int] = [:]
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]

    init(limit: Int) { self.limit = max(1, limit) }

    func acquire(_ key: String) async {
        if active[key, default: 0] < limit {
            active[key, default: 0] += 1
            return
        }
        await withCheckedContinuation { waiting[key, default: []].append($0) }
    }

    func release(_ key: String) {
        if var queue = waiting[key], !queue.isEmpty {
            let next = queue.removeFirst()
            waiting[key] = queue
            next.resume()  // the slot passes straight to the next waiter
        } else {
            active[key, default: 1] -= 1
        }
    }

    static func host(of url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return url }
        let rest = url[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        // Never the userinfo: hosts are keys in <state>/mirrors.json, and a password is not part of a host.
        let host = authority.lastIndex(of: "@").map { authority[authority.index(after: $0)...] } ?? authority
        return String(host).lowercased()
    }
}
