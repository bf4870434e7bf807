import DocSyncHTTP
import Testing

/// The pure network policies: address scopes and the private-redirect rule.
@Suite(.timeLimit(.minutes(5))) struct NetworkPolicyTests {
    @Test(arguments: [
        ("169.254.169.254", AddressScope.linkLocal), ("169.254.0.1", .linkLocal), ("169.255.0.1", .publicInternet),
        ("100.100.100.200", .linkLocal), ("100.100.100.201", .privateNetwork), ("fd00:ec2::254", .linkLocal),
        ("fd00:ec2::253", .privateNetwork), ("10.1.2.3", .privateNetwork),
        ("172.16.0.1", .privateNetwork), ("172.31.255.255", .privateNetwork), ("172.32.0.1", .publicInternet),
        ("172.15.0.1", .publicInternet), ("192.168.1.1", .privateNetwork), ("192.169.1.1", .publicInternet),
        ("127.0.0.1", .privateNetwork), ("127.255.0.9", .privateNetwork), ("0.0.0.0", .privateNetwork),
        ("100.64.0.1", .privateNetwork), ("100.128.0.1", .publicInternet), ("8.8.8.8", .publicInternet),
        ("93.184.216.34", .publicInternet), ("::1", .privateNetwork), ("::", .privateNetwork),
        ("fc00::1", .privateNetwork), ("fd12:3456::1", .privateNetwork), ("fe80::1", .linkLocal),
        ("febf::1", .linkLocal), ("fec0::1", .publicInternet), ("2001:db8::1", .publicInternet),
        ("::ffff:10.0.0.1", .privateNetwork), ("::ffff:8.8.8.8", .publicInternet),
        ("::ffff:169.254.169.254", .linkLocal),
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

    /// target, original, redirected, allowPrivate → admitted (link-local not allowed, not the same host)
    @Test(arguments: [
        (AddressScope.privateNetwork, AddressScope?.some(.publicInternet), true, false, false),
        (.privateNetwork, .publicInternet, true, true, true),
        (.privateNetwork, .privateNetwork, true, false, false),  // another private host
        (.privateNetwork, nil, true, false, false),
        (.publicInternet, .publicInternet, true, false, true),
        (.publicInternet, .privateNetwork, true, false, false),  // a redirect may not change the scope
        (.publicInternet, .privateNetwork, true, true, true),
        (.publicInternet, nil, true, false, true),
        (.privateNetwork, .publicInternet, false, false, true),
        (.privateNetwork, nil, false, false, true),
        (.linkLocal, .publicInternet, true, false, false),
        (.linkLocal, .privateNetwork, true, false, false),
        (.linkLocal, .privateNetwork, true, true, false),  // allow_private_redirects does not open link-local
        (.linkLocal, nil, false, false, false),  // not even as the first request
        (.linkLocal, nil, false, true, false),
    ])
    func redirectPolicy(
        target: AddressScope, original: AddressScope?, redirected: Bool, allowPrivate: Bool, admitted: Bool
    ) {
        #expect(
            RedirectPolicy.admits(
                target: target, original: original, redirected: redirected, allowPrivate: allowPrivate) == admitted)
    }

    /// sameHost and allowLinkLocal: target, original, redirected, allowPrivate, allowLinkLocal, sameHost → admitted
    @Test(arguments: [
        (AddressScope.privateNetwork, AddressScope?.some(.privateNetwork), true, false, false, true, true),
        (.privateNetwork, .privateNetwork, true, false, false, false, false),
        (.publicInternet, .publicInternet, true, false, false, false, true),
        (.linkLocal, nil, false, false, true, false, true),
        (.linkLocal, .linkLocal, true, false, true, true, true),
        (.linkLocal, .linkLocal, true, false, true, false, false),
        (.linkLocal, .publicInternet, true, false, true, false, false),
        (.linkLocal, .publicInternet, true, true, true, false, true),
    ])
    func redirectPolicyWithHostsAndLinkLocal(
        target: AddressScope, original: AddressScope?, redirected: Bool, allowPrivate: Bool, allowLinkLocal: Bool,
        sameHost: Bool, admitted: Bool
    ) {
        #expect(
            RedirectPolicy.admits(
                target: target, original: original, redirected: redirected, allowPrivate: allowPrivate,
                allowLinkLocal: allowLinkLocal, sameHost: sameHost) == admitted)
    }

    @Test(arguments: [
        ("metadata.google.internal", true), ("METADATA.GOOGLE.INTERNAL.", true), ("metadata", true),
        ("instance-data", true), ("instance-data.ec2.internal", true), ("metadata.goog", true),
        ("metadata.example.com", false), ("example.com", false), ("169.254.169.254", false),
    ])
    func metadataHostNames(host: String, metadata: Bool) {
        #expect(AddressScope.isMetadataHost(host) == metadata, "\(host)")
    }

    @Test(arguments: [
        ("http://user:pw@169.254.169.254:80/latest", "169.254.169.254"), ("https://[fe80::1]:8443/x", "fe80::1"),
        ("http://Metadata.Google.Internal/computeMetadata", "metadata.google.internal"), ("/relative", nil),
        ("http://h.example/a?next=https://other.example/", "h.example"), ("http:/h.example/", nil), ("x:", nil),
        ("é://Host.Example", "host.example"),
    ])
    func urlHosts(url: String, host: String?) {
        #expect(AddressScope.host(ofURL: url) == host)
    }
}
