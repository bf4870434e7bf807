internal import DocSyncSupport

/// `docsync.lock` stores archive URLs redacted (`https://user:***@host/…`, `?token=***`): it is a file people commit
/// and share. `sync --locked` takes the credentials back from the configuration at run time: a redacted part of a
/// lock URL is filled from a configured URL (a `[[feed]] url`, a `[catalog]` URL or mirror) of the same scheme, host
/// and port — with the same user name for a password, the same parameter name for a query secret. A URL with a part
/// no configured URL supplies is not usable (nil): it is never requested with `***` in it.
///
/// Pure: configured URLs in, restored URL out.
struct LockCredentials: Sendable {
    /// The redacted marker `String.redactingCredentials` writes.
    static let marker = "***"

    private let sources: [Parts]

    /// `configured`: every URL the configuration names, credentials included (local paths are ignored).
    init(configured: [String]) {
        sources = configured.compactMap(Parts.init)
    }

    /// `url` with its redacted parts filled in; `url` itself when nothing in it is redacted; nil when a redacted
    /// part has no source in the configuration.
    func restore(_ url: String) -> String? {
        guard url.contains(Self.marker) else { return url }
        guard var parts = Parts(url) else { return nil }
        // Same origin only: a credential never goes to a host it was not configured for. Among those, the
        // configured URLs whose folder holds the archive first (a mirror's own token before a sibling's).
        let origin = sources.filter { $0.origin == parts.origin }
        let ordered =
            origin.filter { parts.path.hasPrefix($0.folder) } + origin.filter { !parts.path.hasPrefix($0.folder) }
        if parts.password == Self.marker {
            guard let source = ordered.first(where: { $0.user == parts.user && $0.hasSecretPassword }) else {
                return nil
            }
            parts.password = source.password
        }
        for index in parts.query.indices where parts.query[index].value == Self.marker {
            let name = parts.query[index].name.lowercased()
            guard String.secretQueryNames.contains(name),
                let value = ordered.lazy.compactMap({ $0.secretValue(named: name) }).first
            else { return nil }
            parts.query[index].value = value
        }
        return parts.joined
    }

    /// A URL split where credentials live: `scheme://[user[:password]@]hostport path[?query][#fragment]`.
    private struct Parts: Sendable {
        var scheme: String
        var user: String?
        var password: String?
        var hostPort: String
        var path: String
        var query: [(name: String, value: String?)]
        var fragment: String?

        var origin: String { "\(scheme.lowercased())://\(hostPort.lowercased())" }
        /// The path up to its last `/`.
        var folder: String { path.lastIndex(of: "/").map { String(path[...$0]) } ?? "/" }
        var hasSecretPassword: Bool { password.map { !$0.isEmpty && $0 != LockCredentials.marker } ?? false }

        func secretValue(named name: String) -> String? {
            query.first { $0.name.lowercased() == name }.flatMap(\.value).flatMap {
                $0.isEmpty || $0 == LockCredentials.marker ? nil : $0
            }
        }

        init?(_ url: String) {
            guard let schemeEnd = url.range(of: "://") else { return nil }
            scheme = String(url[..<schemeEnd.lowerBound])
            guard scheme.lowercased() == "http" || scheme.lowercased() == "https" else { return nil }
            var rest = Substring(url[schemeEnd.upperBound...])
            if let hash = rest.firstIndex(of: "#") {
                fragment = String(rest[rest.index(after: hash)...])
                rest = rest[..<hash]
            }
            var queryText: Substring?
            if let mark = rest.firstIndex(of: "?") {
                queryText = rest[rest.index(after: mark)...]
                rest = rest[..<mark]
            }
            let slash = rest.firstIndex(of: "/") ?? rest.endIndex
            var authority = rest[..<slash]
            path = rest[slash...].isEmpty ? "/" : String(rest[slash...])
            if let at = authority.lastIndex(of: "@") {
                let userinfo = authority[..<at]
                if let colon = userinfo.firstIndex(of: ":") {
                    user = String(userinfo[..<colon])
                    password = String(userinfo[userinfo.index(after: colon)...])
                } else {
                    user = String(userinfo)
                }
                authority = authority[authority.index(after: at)...]
            }
            hostPort = String(authority)
            query =
                queryText.map { text in
                    text.split(separator: "&", omittingEmptySubsequences: false).map { pair in
                        guard let equals = pair.firstIndex(of: "=") else { return (String(pair), nil) }
                        return (String(pair[..<equals]), String(pair[pair.index(after: equals)...]))
                    }
                } ?? []
        }

        var joined: String {
            var text = "\(scheme)://"
            if let user { text += password.map { "\(user):\($0)@" } ?? "\(user)@" }
            text += hostPort + path
            if !query.isEmpty {
                let pairs = query.map { pair in pair.value.map { "\(pair.name)=\($0)" } ?? pair.name }
                text += "?" + pairs.joined(separator: "&")
            }
            if let fragment { text += "#\(fragment)" }
            return text
        }
    }
}
