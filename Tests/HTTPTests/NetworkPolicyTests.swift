import DocSyncHTTP
import Testing

/// The pure network policies: address scopes and the private-redirect rule.
@Suite(.timeLimit(.minutes(5))) struct NetworkPolicyTests {
    @Test(arguments: [
        ("169.254.169.254", AddressScope.privateNetwork), ("10.1.2.3", .privateNetwork),
        ("172.16.0.1", .privateNetwork), ("172.31.255.255", .privateNetwork), ("172.32.0.1", .publicInternet),
        ("172.15.0.1", .publicInternet), ("192.168.1.1", .privateNetwork), ("192.169.1.1", .publicInternet),
        ("127.0.0.1", .privateNetwork), ("127.255.0.9", .privateNetwork), ("0.0.0.0", .privateNetwork),
        ("100.64.0.1", .privateNetwork), ("100.128.0.1", .publicInternet), ("8.8.8.8", .publicInternet),
        ("93.184.216.34", .publicInternet), ("::1", .privateNetwork), ("::", .privateNetwork),
        ("fc00::1", .privateNetwork), ("fd12:3456::1", .privateNetwork), ("fe80::1", .privateNetwork),
        ("febf::1", .privateNetwork), ("fec0::1", .publicInternet), ("2001:db8::1", .publicInternet),
        ("::ffff:10.0.0.1", .privateNetwork), ("::ffff:8.8.8.8", .publicInternet),
        ("::ffff:169.254.169.254", .privateNetwork),
    ])
    func addressScopes(text: String, scope: AddressScope) throws {
        let address = try #require(IPAddress(text), "\(text) parses")
        #expect(AddressScope.of(address) == scope, "\(text)")
    }

    @Test(arguments: [
        "", "1.2.3", "1.2.3.4.5", "256.1.1.1", "1..2.3", "::1::2", "12345::1", "g::1", "1:2:3:4:5:6:7:8:9",
    ])
    func malformedAddresses(text: String) {
        #expect(IPAddress(text) == nil, "\(text)")
    }

    @Test func theClassifierMarksListedEndpointsPublic() throws {
        let classifier = AddressClassifier(publicEndpoints: ["127.0.0.1:8080"])
        #expect(classifier.scope(of: try #require(IPAddress("127.0.0.1", port: 8080))) == .publicInternet)
        #expect(classifier.scope(of: try #require(IPAddress("127.0.0.1", port: 8081))) == .privateNetwork)
    }

    /// target, original, redirected, allowPrivate → admitted
    @Test(arguments: [
        (AddressScope.privateNetwork, AddressScope?.some(.publicInternet), true, false, false),
        (.privateNetwork, .publicInternet, true, true, true),
        (.privateNetwork, .privateNetwork, true, false, true),
        (.privateNetwork, nil, true, false, false),
        (.publicInternet, .publicInternet, true, false, true),
        (.publicInternet, .privateNetwork, true, false, true),
        (.privateNetwork, .publicInternet, false, false, true),
        (.privateNetwork, nil, false, false, true),
    ])
    func redirectPolicy(
        target: AddressScope, original: AddressScope?, redirected: Bool, allowPrivate: Bool, admitted: Bool
    ) {
        #expect(
            RedirectPolicy.admits(
                target: target, original: original, redirected: redirected, allowPrivate: allowPrivate) == admitted)
    }
}
