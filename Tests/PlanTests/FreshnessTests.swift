import DocSync
import DocSyncHTTP
import Foundation
import Testing

@Suite(.timeLimit(.minutes(5))) struct FreshnessTests {
    static let received = Date(timeIntervalSince1970: 1_800_000_000)
    static let date = HTTPDate.format(received)

    /// Each row: headers of the stored response, seconds since it was received, fresh?
    @Test(
        arguments: [
            ("max-age within its lifetime is fresh", "max-age=600", nil, nil, 599.0, true),
            ("max-age past its lifetime is stale", "max-age=600", nil, nil, 601.0, false),
            ("max-age wins over Expires", "max-age=60", "+3600", nil, 120.0, false),
            ("Expires minus Date gives the lifetime", nil, "+3600", nil, 3000.0, true),
            ("Expires in the past is stale", nil, "-10", nil, 0.0, false),
            ("an invalid Expires is stale", nil, "0", nil, 0.0, false),
            ("no-cache always revalidates", "no-cache, max-age=600", nil, nil, 1.0, false),
            ("no-store always revalidates", "no-store", nil, nil, 1.0, false),
            ("no explicit lifetime: no heuristic", nil, nil, nil, 1.0, false),
            ("Age counts against the lifetime", "max-age=600", nil, "500", 101.0, false),
            ("Age within the lifetime", "max-age=600", nil, "500", 99.0, true),
            ("a repeated max-age is stale", "max-age=600, max-age=900", nil, nil, 1.0, false),
            ("quoted max-age is accepted", "max-age=\"600\"", nil, nil, 10.0, true),
        ] as [(String, String?, String?, String?, Double, Bool)])
    func rule(name: String, cacheControl: String?, expiresOffset: String?, age: String?, elapsed: Double, fresh: Bool) {
        let expires = expiresOffset.map { offset in
            Double(offset).map { HTTPDate.format(Self.received.addingTimeInterval($0)) } ?? offset
        }
        let entry = FeedCacheEntry(
            url: "https://h/f.xml", cacheControl: cacheControl, expires: expires, date: Self.date, age: age,
            storedAt: Self.received)
        #expect(Freshness.isFresh(entry, now: Self.received.addingTimeInterval(elapsed)) == fresh, "\(name)")
    }

    @Test func conditionalHeadersAndFreshening() {
        let entry = FeedCacheEntry(
            url: "u", etag: "\"v1\"", lastModified: "Sat, 21 Nov 2026 10:00:00 GMT", cacheControl: "max-age=60",
            storedAt: Self.received)
        #expect(
            entry.conditionalHeaders == ["If-None-Match: \"v1\"", "If-Modified-Since: Sat, 21 Nov 2026 10:00:00 GMT"])
        let later = Self.received.addingTimeInterval(1000)
        let freshened = entry.freshened(byNotModified: ["cache-control": "max-age=120", "etag": "\"v2\""], at: later)
        #expect(freshened.etag == "\"v2\"" && freshened.cacheControl == "max-age=120" && freshened.storedAt == later)
        #expect(Freshness.isFresh(freshened, now: later.addingTimeInterval(100)))
    }

    /// Each row: the stored entry's and the 304's caching headers and validators, must the entry be rewritten?
    @Test(
        arguments: [
            ("never fresh, validators kept: not rewritten", nil, nil, nil, nil, nil, nil, false),
            ("the same ETag sent again: not rewritten", nil, nil, "\"v1\"", nil, nil, nil, false),
            ("a new ETag is kept", nil, nil, "\"v2\"", nil, nil, nil, true),
            ("a new Last-Modified is kept", nil, nil, nil, "Sun, 22 Nov 2026 10:00:00 GMT", nil, nil, true),
            ("a stored max-age: the age clock restarts", "max-age=60", nil, nil, nil, nil, nil, true),
            ("a max-age arrives", nil, nil, nil, nil, "max-age=60", nil, true),
            ("an Expires arrives", nil, nil, nil, nil, nil, "Sun, 22 Nov 2026 10:00:00 GMT", true),
            ("a stored Expires: Date and age matter", nil, "Sun, 22 Nov 2026 10:00:00 GMT", nil, nil, nil, nil, true),
            ("no-cache stored and sent again: never fresh", "no-cache", nil, nil, nil, "no-cache", nil, false),
            ("no-cache replaced by nothing: kept as it was", "no-cache", nil, nil, nil, nil, nil, false),
        ] as [(String, String?, String?, String?, String?, String?, String?, Bool)])
    func rewriteAfterNotModified(
        name: String, storedCacheControl: String?, storedExpires: String?, etag: String?, lastModified: String?,
        cacheControl: String?, expires: String?, rewritten: Bool
    ) {
        let stored = FeedCacheEntry(
            url: "u", etag: "\"v1\"", lastModified: "Sat, 21 Nov 2026 10:00:00 GMT", cacheControl: storedCacheControl,
            expires: storedExpires, date: Self.date, storedAt: Self.received)
        var fields = ["date": HTTPDate.format(Self.received.addingTimeInterval(1000))]
        fields["etag"] = etag
        fields["last-modified"] = lastModified
        fields["cache-control"] = cacheControl
        fields["expires"] = expires
        let freshened = stored.freshened(byNotModified: fields, at: Self.received.addingTimeInterval(1000))
        #expect(freshened.needsSaving(replacing: stored) == rewritten, "\(name)")
    }

    @Test(arguments: [
        "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
    ])
    func httpDateForms(text: String) {
        #expect(HTTPDate.date(text) == Date(timeIntervalSince1970: 784_111_777))
    }
}
