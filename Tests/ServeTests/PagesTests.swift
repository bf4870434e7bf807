import DocSync
import DocSyncServe
import Foundation
import TestSupport
import Testing

/// `/d/…` over real HTTP against the real server: redirects to the installed version, headers, conditional GETs,
/// ranges, and a version replaced and pruned while a reader is on it.
@Suite(.timeLimit(.minutes(10))) struct PagesTests {
    @Test func aPageIsServedFromTheInstalledVersionWithItsHeaders() async throws {
        let h = try ServeHarness()
        defer { h.remove() }
        let v1 = try await h.install("A", version: "1")
        try await h.start()
        let version = ServeHarness.versionName(v1)

        let redirect = try await h.http.get("/d/A/section1/page1.html")
        #expect(redirect.status == 302)
        #expect(redirect.header("Location") == "/d/\(version)/section1/page1.html")
        #expect(redirect.header("Cache-Control") == "no-store")

        let expected = try await v1.contents(of: "section1/page1.html")
        let page = try await h.http.get("/d/\(version)/section1/page1.html")
        #expect(page.status == 200)
        #expect(page.body == expected)
        #expect(page.header("Content-Type") == "text/html; charset=utf-8")
        #expect(page.header("Cache-Control") == "public, max-age=600")
        #expect(page.header("Accept-Ranges") == "bytes")
        #expect(page.header("X-Content-Type-Options") == "nosniff")
        let policy = try #require(page.header("Content-Security-Policy"))
        #expect(policy.hasPrefix("sandbox allow-scripts") && !policy.contains("allow-same-origin"))
        let etag = try #require(page.header("ETag"))
        #expect(etag == "\"\(version)/section1/page1.html\"")

        // Conditional GET: the same tag is 304 without a body; another tag is the page.
        let same = try await h.http.get("/d/\(version)/section1/page1.html", headers: ["If-None-Match": etag])
        #expect(same.status == 304 && same.body.isEmpty)
        #expect(same.header("ETag") == etag)
        let other = try await h.http.get("/d/\(version)/section1/page1.html", headers: ["If-None-Match": "\"x\", W/\"y\""])
        #expect(other.status == 200 && other.body == expected)
        let any = try await h.http.get("/d/\(version)/section1/page1.html", headers: ["If-None-Match": "*"])
        #expect(any.status == 304)

        // Ranges.
        let first = try await h.http.get("/d/\(version)/section1/page1.html", headers: ["Range": "bytes=0-9"])
        #expect(first.status == 206 && first.body == Array(expected[0..<10]))
        #expect(first.header("Content-Range") == "bytes 0-9/\(expected.count)")
        let tail = try await h.http.get("/d/\(version)/section1/page1.html", headers: ["Range": "bytes=-5"])
        #expect(tail.status == 206 && tail.body == Array(expected.suffix(5)))
        let open = try await h.http.get("/d/\(version)/section1/page1.html", headers: ["Range": "bytes=100-"])
        #expect(open.status == 206 && open.body == Array(expected[100...]))
        let beyond = try await h.http.get("/d/\(version)/section1/page1.html", headers: ["Range": "bytes=999999-"])
        #expect(beyond.status == 416 && beyond.header("Content-Range") == "bytes */\(expected.count)")
        let stale = try await h.http.get(
            "/d/\(version)/section1/page1.html", headers: ["Range": "bytes=0-9", "If-Range": "\"old\""])
        #expect(stale.status == 200 && stale.body == expected, "If-Range with another tag: the whole page")
        let fresh = try await h.http.get(
            "/d/\(version)/section1/page1.html", headers: ["Range": "bytes=0-9", "If-Range": etag])
        #expect(fresh.status == 206)

        // HEAD: the headers and length, no body.
        let head = try await h.http.get("/d/\(version)/section1/page1.html", method: "HEAD")
        #expect(head.status == 200 && head.body.isEmpty && head.header("Content-Length") == "\(expected.count)")
        // Writes are not served.
        #expect(try await h.http.get("/d/\(version)/section1/page1.html", method: "DELETE").status == 405)
        // A folder URL without its slash is redirected so that relative links resolve; a folder gets index.html.
        let bare = try await h.http.get("/d/A")
        #expect(bare.status == 301 && bare.header("Location") == "/d/A/")

        try await h.stop()
        let log = try String(contentsOfFile: h.dir.appending("access.log"), encoding: .utf8)
        let line = try #require(log.split(separator: "\n").first)
        #expect(
            line.wholeMatch(
                of: /127\.0\.0\.1 - - \[\d\d\/[A-Z][a-z]{2}\/\d{4}:\d\d:\d\d:\d\d \+0000\] "GET \/d\/A\/section1\/page1\.html HTTP\/1\.1" 302 0/
            ) != nil, "common log format: \(line)")
    }

    @Test func aReplacedVersionServesItsReadersUntilPrunedThenRedirects() async throws {
        let h = try ServeHarness(grace: "0s")
        defer { h.remove() }
        var big = try DocsetFixture.make(version: "1")
        let large = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        big.files["Contents/Resources/Documents/big.bin"] = (large, 0o644)
        let v1 = try await h.install("A", version: "1", fixture: big)
        try await h.start()
        let old = ServeHarness.versionName(v1)

        // A reader starts on a large page of v1 and reads a little of it...
        let connection = try RawHTTP.Connection(port: h.port)
        defer { connection.close() }
        try connection.send(Array("GET /d/\(old)/big.bin HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
        var received = try await connection.reading(4096)

        // ...while a sync replaces v1 (grace 0 s: only a lease, as a reader would hold, keeps v1 meanwhile).
        let lease = try await h.engine.lease("A")
        let v2 = try await h.install("A", version: "2")
        let new = ServeHarness.versionName(v2)
        try await Poll.until("the server to see v2") {
            try await h.http.get("/d/A/page0.html").header("Location") == "/d/\(new)/page0.html"
        }
        // The old version's pages are still served to its reader while the version exists.
        let before = try await h.http.get("/d/\(old)/page0.html")
        #expect(before.status == 200 && before.text.contains("1 page 0"))
        try await h.prune()
        #expect(FileManager.default.fileExists(atPath: v1.path), "the lease keeps v1")
        #expect(try await h.http.get("/d/\(old)/page0.html").status == 200)
        lease.release()
        try await h.prune()
        #expect(!FileManager.default.fileExists(atPath: v1.path), "v1 was pruned")

        // The read in flight completes with v1's bytes, whole.
        received += try await connection.reading(Int.max)
        let reply = try RawHTTP.parse(received)
        #expect(reply.status == 200)
        #expect(reply.body == large, "the page read mid-replacement is v1's, whole (\(reply.body.count) bytes)")

        // Past its grace period: a v1 URL redirects to the same page of what is installed now.
        let gone = try await h.http.get("/d/\(old)/page0.html")
        #expect(gone.status == 302 && gone.header("Location") == "/d/A/page0.html")
        let now = try await h.http.get("/d/\(new)/page0.html")
        #expect(now.status == 200 && now.text.contains("2 page 0"))
        try await h.stop()
    }
}
