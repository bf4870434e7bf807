import DocSyncHTTP
import Testing

/// Which URLs an `HTTPConnectionPool` lets share a kept connection: one origin — scheme, credentials, host and
/// port — and nothing else.
@Suite(.timeLimit(.minutes(5))) struct ConnectionPoolTests {
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

    /// The newest idle slot of an origin is handed out first; another origin's slot never is.
    @Test func checkoutHandsOutTheNewestSlotOfTheOrigin() {
        let pool = HTTPConnectionPool()
        let (a, b, other) = (HTTPConnection(byOrigin: true), HTTPConnection(byOrigin: true), HTTPConnection())
        pool.checkin(a, for: "http://h/a.xml")
        pool.checkin(b, for: "http://h/b.xml")
        pool.checkin(other, for: "http://g/c.xml")
        #expect(pool.checkout(for: "http://h/z.xml") === b)
        #expect(pool.checkout(for: "http://h/z.xml") === a)
        let fresh = pool.checkout(for: "http://h/z.xml")
        #expect(fresh !== a && fresh !== b && fresh !== other)
        #expect(pool.idleCount == 1)
    }

    /// At most `idlePerOrigin` idle slots an origin and `idleTotal` in all, the oldest let go first.
    @Test func idleSlotsAreBounded() {
        let pool = HTTPConnectionPool(idlePerOrigin: 3, idleTotal: 5)
        let slots = (0..<4).map { _ in HTTPConnection(byOrigin: true) }
        for slot in slots { pool.checkin(slot, for: "http://h/f.xml") }
        #expect(pool.idleCount == 3)
        for i in 0..<4 { pool.checkin(HTTPConnection(byOrigin: true), for: "http://h\(i).example/f.xml") }
        #expect(pool.idleCount == 5)
        // The oldest went first: of the first origin's slots only the newest is left.
        #expect(pool.checkout(for: "http://h/f.xml") === slots[3])
        #expect(pool.checkout(for: "http://h/f.xml") !== slots[2])
    }

    /// A slot idle longer than `idleLimit` is let go, not handed out.
    @Test func slotsIdleTooLongAreLetGo() {
        let pool = HTTPConnectionPool(idleLimit: .seconds(30))
        let start = ContinuousClock.now
        let (kept, stale) = (HTTPConnection(byOrigin: true), HTTPConnection(byOrigin: true))
        pool.checkin(kept, for: "http://h/a.xml", now: start)
        #expect(pool.checkout(for: "http://h/a.xml", now: start + .seconds(29)) === kept)
        pool.checkin(stale, for: "http://h/a.xml", now: start)
        #expect(pool.checkout(for: "http://h/a.xml", now: start + .seconds(31)) !== stale)
        #expect(pool.idleCount == 0)
    }
}
