import DocSyncHTTP
import Testing

/// Which URLs an `HTTPConnectionPool` lets share a kept connection: one origin — scheme, credentials, host and
/// port — and nothing else.
@Suite(.timeLimit(.minutes(1))) struct ConnectionPoolTests {
    @Test(
        arguments: [
            ("http://127.0.0.1:8080/a.xml", "http://127.0.0.1:8080"),
            ("HTTP://Feeds.Example.COM/x/y.xml?z#w", "http://feeds.example.com"),
            ("https://example.com?q", "https://example.com"),
            ("https://user:Secret@example.com:8443/f", "https://user:Secret@example.com:8443"),
            ("https://a@b@Example.com/f", "https://a@b@example.com"),
            ("http://[::1]:80/f", "http://[::1]:80"),
            ("ftp://example.com/f", nil),
            ("/var/feeds/a.xml", nil),
            ("http:///a.xml", nil),
        ] as [(String, String?)])
    func origin(url: String, origin: String?) {
        #expect(HTTPConnectionPool.origin(of: url) == origin, "\(url)")
    }

    @Test(
        arguments: [
            ("http://h/a.xml", "http://H/b.xml", true),
            ("http://h/a.xml", "https://h/a.xml", false),
            ("http://h/a.xml", "http://h:81/a.xml", false),
            ("http://h/a.xml", "http://u@h/a.xml", false),
            ("http://h.example/a.xml", "http://h.example.evil/a.xml", false),
            ("file:///a", "file:///a", false),
        ] as [(String, String, Bool)])
    func sameOrigin(a: String, b: String, same: Bool) {
        #expect(HTTPConnectionPool.sameOrigin(a, b) == same, "\(a) \(b)")
    }
}
