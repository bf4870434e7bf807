import DocSyncSupport

/// Where an address leads: the public internet, a private network a redirect from outside must not reach, or the
/// link-local network where cloud metadata services answer.
package enum AddressScope: String, Sendable, Equatable {
    case publicInternet = "public"
    /// Private (RFC 1918, IPv6 unique local), loopback, "this network" (0/8), shared CGNAT space (100.64/10) and
    /// unspecified addresses.
    case privateNetwork = "private"
    /// Link-local (169.254.0.0/16, fe80::/10; cloud metadata at 169.254.169.254) and the metadata endpoints outside
    /// it (100.100.100.200, fd00:ec2::254): never connected to unless `[network] allow_link_local`.
    case linkLocal = "link-local"

    /// Host names of cloud metadata services (GCE, AWS, Azure, OpenStack, Alibaba, Tencent, Equinix…): never
    /// connected to unless `[network] allow_link_local`, whatever they resolve to.
    package static let metadataHostNames: Set<String> = [
        "metadata", "metadata.google.internal", "metadata.goog", "metadata.internal", "instance-data",
        "instance-data.ec2.internal", "metadata.azure.internal", "metadata.tencentyun.com",
        "metadata.platformequinix.com", "metadata.packet.net",
    ]

    /// The host of an absolute URL, lowercased, without brackets, userinfo or port; nil without `://`.
    package static func host(ofURL url: String) -> String? {
        guard let start = url.indexAfterSchemeSeparator else { return nil }
        var authority = url[start...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            return String(authority[authority.index(after: authority.startIndex)..<close]).lowercased()
        }
        return String(authority.prefix { $0 != ":" }).lowercased()
    }

    /// True when `host` (as in a URL: any case, an optional trailing dot) names a cloud metadata service.
    package static func isMetadataHost(_ host: String) -> Bool {
        var name = host.lowercased()
        while name.hasSuffix(".") { name.removeLast() }
        return metadataHostNames.contains(name)
    }

    /// The scope of `address` by its ranges. Pure: the table is the whole rule.
    package static func of(_ address: IPAddress) -> AddressScope {
        let a = address.unmapped.bytes
        if a.count == 4 {
            switch (a[0], a[1]) {
            case (169, 254): return .linkLocal
            case (100, 100) where a[2] == 100 && a[3] == 200: return .linkLocal  // Alibaba Cloud metadata
            case (0, _), (10, _), (127, _): return .privateNetwork
            case (100, 64...127): return .privateNetwork
            case (172, 16...31): return .privateNetwork
            case (192, 168): return .privateNetwork
            default: return .publicInternet
            }
        }
        if a.allSatisfy({ $0 == 0 }) { return .privateNetwork }  // ::
        if a[0..<15].allSatisfy({ $0 == 0 }), a[15] == 1 { return .privateNetwork }  // ::1
        if a[0] == 0xFE, a[1] & 0xC0 == 0x80 { return .linkLocal }  // fe80::/10
        if a == [0xFD, 0, 0x0E, 0xC2] + [UInt8](repeating: 0, count: 10) + [0x02, 0x54] { return .linkLocal }  // AWS
        if a[0] & 0xFE == 0xFC { return .privateNetwork }  // fc00::/7
        return .publicInternet
    }
}

/// Classifies the addresses a transfer connects to. `publicEndpoints` lists `IP:port` endpoints that count as
/// public although their address does not — for tests only, which can listen on loopback and nowhere else.
package struct AddressClassifier: Sendable, Equatable {
    package var publicEndpoints: Set<String>

    package init(publicEndpoints: Set<String> = []) { self.publicEndpoints = publicEndpoints }

    package func scope(of address: IPAddress) -> AddressScope {
        if publicEndpoints.contains("\(address.unmapped):\(address.port)") { return .publicInternet }
        return AddressScope.of(address)
    }
}

/// Whether a transfer may connect to an address. Pure, one table:
/// - a link-local or metadata address (`AddressScope.linkLocal`) only with `allowLinkLocal`, redirected or not;
/// - a first connection (no redirect yet) anywhere else;
/// - after a redirect, with `allowPrivate` anywhere else; without it, only within the original address's scope
///   (public to public), and within a private scope only to the same host (`sameHost`: the original address).
///   A redirect from public to private, from private to public, or from one private host to another is refused.
package enum RedirectPolicy {
    /// True when a connection to an address of scope `target` may be made (see the table above).
    package static func admits(
        target: AddressScope, original: AddressScope?, redirected: Bool, allowPrivate: Bool,
        allowLinkLocal: Bool = false, sameHost: Bool = false
    ) -> Bool {
        if target == .linkLocal, !allowLinkLocal { return false }
        guard redirected, !allowPrivate else { return true }
        guard let original else { return target == .publicInternet }
        guard original == target else { return false }
        return target == .publicInternet || sameHost
    }
}

/// The first address a transfer connected to, and its scope: what the redirect policy compares later connections
/// with (kept with a reused connection).
struct AddressOrigin: Sendable, Equatable {
    var scope: AddressScope
    var address: IPAddress

    func isSameHost(_ other: IPAddress) -> Bool { address.unmapped.bytes == other.unmapped.bytes }
}
