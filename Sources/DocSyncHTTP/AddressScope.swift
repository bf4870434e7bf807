/// Where an address leads: the public internet, or a network a redirect from outside must not reach.
public enum AddressScope: String, Sendable, Equatable {
    case publicInternet = "public"
    /// Private (RFC 1918, IPv6 unique local), loopback, link-local (cloud metadata at 169.254.169.254), "this
    /// network" (0/8), shared CGNAT space (100.64/10) and unspecified addresses.
    case privateNetwork = "private"

    /// The scope of `address` by its ranges. Pure: the table is the whole rule.
    public static func of(_ address: IPAddress) -> AddressScope {
        let a = address.unmapped.bytes
        if a.count == 4 {
            switch (a[0], a[1]) {
            case (0, _), (10, _), (127, _): return .privateNetwork
            case (100, 64...127): return .privateNetwork
            case (169, 254): return .privateNetwork
            case (172, 16...31): return .privateNetwork
            case (192, 168): return .privateNetwork
            default: return .publicInternet
            }
        }
        if a.allSatisfy({ $0 == 0 }) { return .privateNetwork }  // ::
        if a[0..<15].allSatisfy({ $0 == 0 }), a[15] == 1 { return .privateNetwork }  // ::1
        if a[0] & 0xFE == 0xFC { return .privateNetwork }  // fc00::/7
        if a[0] == 0xFE, a[1] & 0xC0 == 0x80 { return .privateNetwork }  // fe80::/10
        return .publicInternet
    }
}

/// Classifies the addresses a transfer connects to. `publicEndpoints` lists `IP:port` endpoints that count as
/// public although their address does not — for tests only, which can listen on loopback and nowhere else.
public struct AddressClassifier: Sendable, Equatable {
    public var publicEndpoints: Set<String>

    public init(publicEndpoints: Set<String> = []) { self.publicEndpoints = publicEndpoints }

    public func scope(of address: IPAddress) -> AddressScope {
        if publicEndpoints.contains("\(address.unmapped):\(address.port)") { return .publicInternet }
        return AddressScope.of(address)
    }
}

/// Whether a transfer may connect to an address: after a redirect, a private address is refused when the original
/// URL's address was public, unless private redirects are allowed. Pure, one table.
public enum RedirectPolicy {
    public static func admits(
        target: AddressScope, original: AddressScope?, redirected: Bool, allowPrivate: Bool
    ) -> Bool {
        guard redirected, !allowPrivate, target == .privateNetwork else { return true }
        return original == .privateNetwork
    }
}
