import DocSyncHTTP

/// How plain-http mirror URLs are treated, as browsers' HTTPS-First mode does.
package enum SchemePolicy: String, Sendable, Equatable {
    /// Every URL as the feed gives it.
    case asGiven
    /// `http://` is tried as `https://` first, and as given only when that fails (the default).
    case httpsFirst
    /// `http://` is tried as `https://` only, never in plain http (`[network] require_https`).
    case httpsOnly
}

/// One URL the downloader will try, in order.
package struct Alternate: Sendable, Equatable {
    package var url: String
    /// An `https://` upgrade of a plain-http URL: any failure moves on to the next mirror at once, without retries.
    package var isUpgrade: Bool

    package init(url: String, isUpgrade: Bool = false) {
        self.url = url
        self.isUpgrade = isUpgrade
    }
}

/// Expands a request's mirror list under a `SchemePolicy`. Pure.
package enum AlternatePlan {
    /// Like browsers' HTTPS-First mode, `httpsFirst` leaves local hosts (`localhost`, private and loopback IP
    /// literals) in plain http unless `upgradeLocal` (Firefox's `https_only_mode.upgrade_local`); `httpsOnly`
    /// upgrades every URL.
    package static func expand(_ urls: [String], policy: SchemePolicy, upgradeLocal: Bool = false) -> [Alternate] {
        var result: [Alternate] = []
        func add(_ mirror: Alternate) {
            if !result.contains(where: { $0.url == mirror.url }) { result.append(mirror) }
        }
        for url in urls {
            let exempt = policy == .httpsFirst && !upgradeLocal && isLocal(url)
            guard policy != .asGiven, !exempt, let upgraded = upgrade(url) else {
                add(Alternate(url: url))
                continue
            }
            add(Alternate(url: upgraded, isUpgrade: policy == .httpsFirst))
            if policy == .httpsFirst { add(Alternate(url: url)) }
        }
        return result
    }

    /// `https://…` for an `http://…` URL (scheme matched case-insensitively; host, port and path kept), else nil.
    package static func upgrade(_ url: String) -> String? {
        guard url.prefix(7).lowercased() == "http://" else { return nil }
        return "https://" + url.dropFirst(7)
    }

    /// True when the URL's host is `localhost` or an IP literal in a private, loopback or link-local range.
    package static func isLocal(_ url: String) -> Bool {
        guard let host = host(of: url) else { return false }
        if host == "localhost" || host.hasSuffix(".localhost") { return true }
        guard let address = IPAddress(host) else { return false }
        return AddressScope.of(address) != .publicInternet
    }

    /// The host of an absolute URL, lowercased, without brackets, userinfo or port (`AddressScope.host(ofURL:)`).
    static func host(of url: String) -> String? { AddressScope.host(ofURL: url) }

    /// True when `url` is plain http.
    package static func isPlainHTTP(_ url: String) -> Bool { url.prefix(7).lowercased() == "http://" }
}
