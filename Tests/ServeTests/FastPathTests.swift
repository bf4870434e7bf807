import DocSync
import DocSyncSupport
import Foundation
import HTTPTypes
import Logging
import NIOCore
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@testable import DocSyncServe

/// The event-loop fast path for warm pages (``PageChannelHandler``, ``Routes/warmPage(_:headers:)``): it answers
/// only what needs no waiting, with the async route's headers; keep-alive and pipelined requests stay in order
/// when fast and async answers mix; `Connection: close` closes; every answer is logged and counted.
@Suite(.timeLimit(.minutes(10))) struct FastPathTests {
    /// Consecutive responses on one connection, split by `Content-Length` (`heads[k]`: the k-th was a HEAD);
    /// nil while incomplete. Also the bytes after the last one.
    static func responses(_ bytes: [UInt8], heads: [Bool]) throws -> (replies: [RawHTTP.Reply], rest: Int)? {
        var splitter = ResponseSplitter(heads: heads)
        guard try splitter.advance(bytes) else { return nil }
        return (splitter.replies, bytes.count - splitter.offset)
    }

    /// Splits consecutive responses as their bytes arrive, looking at each byte about once. The reader that parsed
    /// every answer again after each `read` took 16–21 s for 2,000 pipelined answers (debug build, load 1.6); on a
    /// loaded machine long enough for the server's idle timeout to close the connection before the client's next
    /// request, the likely cause of issue 38's "stall" (the server, measured with this reader, does not stall).
    struct ResponseSplitter {
        let heads: [Bool]
        private(set) var replies: [RawHTTP.Reply] = []
        /// Where the next response starts.
        private(set) var offset = 0
        /// Bytes from `offset` already searched for the end of its head.
        private var searched = 0

        init(heads: [Bool]) { self.heads = heads }

        /// Parses the responses complete in `bytes` (everything read so far); true once all of them arrived.
        mutating func advance(_ bytes: [UInt8]) throws -> Bool {
            while replies.count < heads.count {
                guard let end = headEnd(bytes) else { return false }
                var reply = try RawHTTP.parse(Array(bytes[offset..<end]), head: true)
                let length = heads[replies.count] ? 0 : Int(reply.header("Content-Length") ?? "0") ?? 0
                guard bytes.count - end >= length else { return false }
                reply.body = Array(bytes[end..<(end + length)])
                replies.append(reply)
                offset = end + length
                searched = 0
            }
            return true
        }

        /// The index after the blank line ending the head at `offset`, if it arrived.
        private mutating func headEnd(_ bytes: [UInt8]) -> Int? {
            var at = offset + searched
            let end: Int? = bytes.withUnsafeBufferPointer { all in
                while at + 4 <= all.count {
                    if all[at] == 13, all[at + 1] == 10, all[at + 2] == 13, all[at + 3] == 10 { return at + 4 }
                    at += 1
                }
                return nil
            }
            searched = (end.map { $0 - 4 } ?? at) - offset  // positions before it hold no blank line
            return end
        }
    }

    /// Reads until `heads.count` responses arrived (on a thread of its own); fails on anything after them.
    static func read(_ connection: RawHTTP.Connection, heads: [Bool]) async throws -> [RawHTTP.Reply] {
        let result: Result<[UInt8], RawHTTP.Failure> = await WorkerThread.run(name: "raw-http-read") {
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 64 << 10)
            var splitter = ResponseSplitter(heads: heads)
            while (try? splitter.advance(bytes)) != true {
                let got = buffer.withUnsafeMutableBytes { Glibc.read(connection.fd, $0.baseAddress, $0.count) }
                if got < 0 && errno == EINTR { continue }
                guard got > 0 else { return .failure(RawHTTP.Failure(description: "read: \(got), errno \(errno)")) }
                bytes += buffer[0..<got]
            }
            return .success(bytes)
        }
        let (replies, rest) = try #require(try responses(try result.get(), heads: heads))
        #expect(rest == 0, "nothing after the last answer")
        return replies
    }

    /// The splitter finds the same responses whether their bytes arrive whole or one at a time (a head complete
    /// before its body, a blank line cut anywhere), and nothing before they are complete.
    @Test func responsesSplitTheSameWholeOrByteByByte() throws {
        let bytes = Array(
            [
                "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", "HTTP/1.1 204 No Content\r\n\r\n",
                "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\n", "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
            ].joined().utf8)
        let heads = [false, false, true, false]
        let whole = try #require(try Self.responses(bytes, heads: heads))
        #expect(whole.replies.map(\.status) == [200, 204, 200, 200] && whole.rest == 0)
        #expect(whole.replies.map { String(decoding: $0.body, as: UTF8.self) } == ["hello", "", "", "ok"])
        var splitter = ResponseSplitter(heads: heads)
        for count in 0..<bytes.count {
            #expect(try !splitter.advance(Array(bytes[..<count])), "complete after \(count) bytes")
        }
        #expect(try splitter.advance(bytes))
        #expect(splitter.replies.map(\.body) == whole.replies.map(\.body) && splitter.offset == bytes.count)
    }

    @Test func pipelinedRequestsMixingFastAndAsyncAnswersStayInOrder() async throws {
        let h = try ServeHarness()
        defer { h.remove() }
        let (version, page1, page0) = try await FastPathConnectionTests.started(h)
        // The first read keeps the version folder open (async route); later ones can be answered on the event loop.
        #expect(try await h.http.get("/d/\(version)/section1/page1.html").body == page1)

        let connection = try RawHTTP.Connection(port: h.port)
        defer { connection.close() }
        let requests = [
            "GET /d/\(version)/section1/page1.html HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET /api/docsets HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET /d/\(version)/page0.html HTTP/1.1\r\nHost: x\r\n\r\n",
            "HEAD /d/\(version)/section1/page1.html HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET /d/\(version)/section1/page1.html?x=1 HTTP/1.1\r\nHost: x\r\nRange: bytes=0-9\r\n\r\n",
            "GET /d/\(version)/nope.html HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET /d/\(version)/page0.html HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
            "GET /d/\(version)/page0.html HTTP/1.1\r\nHost: x\r\n\r\n",  // after close: never answered
        ]
        // Fast, then async (written after it); then everything else at once.
        try connection.send(Array(requests[0..<2].joined().utf8))
        var replies = try await Self.read(connection, heads: [false, false])
        try connection.send(Array(requests[2...].joined().utf8))
        replies += try await Self.read(connection, heads: [false, true, false, false, false])
        #expect(try await connection.reading(Int.max).isEmpty, "closed after Connection: close")
        #expect(replies.map(\.status) == [200, 200, 200, 200, 206, 404, 200])
        #expect(replies[0].body == page1)
        #expect(replies[1].text.hasPrefix("[{") && replies[1].header("Content-Type")?.hasPrefix("application/json") == true)
        #expect(replies[2].body == page0 && replies[6].body == page0)
        #expect(replies[3].body.isEmpty && replies[3].header("Content-Length") == "\(page1.count)")
        #expect(replies[4].body == Array(page1[0..<10]))
        for reply in [replies[0], replies[2], replies[3], replies[6]] {
            #expect(reply.header("ETag")?.hasPrefix("\"\(version)/") == true)
            #expect(reply.header("Cache-Control") == "public, max-age=600")
            #expect(reply.header("X-Content-Type-Options") == "nosniff")
            #expect(reply.header("Server") == "docsync")
            #expect(reply.header("Referrer-Policy") == "no-referrer")
            #expect(reply.header("Date")?.hasSuffix(" GMT") == true)
        }
        try await h.stop()

        // Every answer is in the access log, fast or not (the warm-up, then the seven).
        let log = try String(contentsOfFile: h.dir.appending("access.log"), encoding: .utf8)
        let lines = log.split(separator: "\n")
        #expect(lines.count == 8, "\(log)")
        #expect(lines.last?.hasSuffix("\"GET /d/\(version)/page0.html HTTP/1.1\" 200 \(page0.count)") == true)
        #expect(lines.contains { $0.hasSuffix("\"HEAD /d/\(version)/section1/page1.html HTTP/1.1\" 200 \(page1.count)") })
    }

    @Test func theWarmPathAnswersOnlyWhatNeedsNoWaitingWithTheAsyncRoutesHeaders() async throws {
        let h = try ServeHarness()
        defer { h.remove() }
        let v1 = try await h.install("A", version: "1")
        let t1 = try await h.install("T", version: "1", layout: .tarix)
        let reads = BlockingPool(name: "test-read", threads: 1, queueLimit: 8)
        let searches = BlockingPool(name: "test-search", threads: 1, queueLimit: 8)
        defer {
            reads.shutdown()
            searches.shutdown()
        }
        let reader = PageReader()
        let routes = Routes(
            docsets: ServedDocsets(engine: h.engine), settings: h.configuration.serve!, logger: Logger(label: "test"),
            reads: reads, searches: searches, reader: reader, cache: PageCache(capacity: 1 << 20))
        let version = ServeHarness.versionName(v1)
        let page = "\(version)/section1/page1.html"
        // Not kept yet: the async route opens the folder.
        #expect(routes.warmPage(Substring(page), headers: [:]) == nil)
        _ = try reader.open("section1/page1.html", of: InstalledDocset(name: "A", path: v1.path), immutable: true)
        let answer = try #require(routes.warmPage(Substring(page), headers: [:]))
        #expect(answer.status == .ok)
        #expect(answer.body.map { Array($0.readableBytesView) } == (try await v1.contents(of: "section1/page1.html")))
        #expect(answer.headers[.eTag] == "\"\(page)\"")
        #expect(answer.headers[.contentType] == "text/html; charset=utf-8")
        let tag = try #require(answer.headers[.eTag])
        #expect(routes.warmPage(Substring(page), headers: [.ifNoneMatch: tag])?.status == .notModified)
        #expect(routes.warmPage(Substring(page), headers: [.range: "bytes=2-3"])?.body?.readableBytes == 2)
        // Everything else is the async route's: the current version (a redirect), a missing page (404), a
        // traversal, a pruned or unknown version, a tarix page not inflated yet.
        #expect(routes.warmPage("A/section1/page1.html", headers: [:]) == nil)
        #expect(routes.warmPage(Substring("\(version)/nope.html"), headers: [:]) == nil)
        #expect(routes.warmPage(Substring("\(version)/..%2F..%2FInfo.plist"), headers: [:]) == nil)
        #expect(routes.warmPage("A@nothing/section1/page1.html", headers: [:]) == nil)
        let tarix = ServeHarness.versionName(t1)
        _ = try reader.open("page0.html", of: InstalledDocset(name: "T", path: t1.path), immutable: true)
        // A small tarix page whose compressed bytes the kernel has cached is inflated right there, and kept; if
        // they are not cached (nil: the async route's), the page is kept as that route would keep it.
        let expected = try await t1.contents(of: "page0.html")
        let tarixPage = Substring("\(tarix)/page0.html")
        if let first = routes.warmPage(tarixPage, headers: [:]) {
            #expect(first.body.map { Array($0.readableBytesView) } == expected)
        } else {
            routes.cache.put(String(tarixPage), ByteBuffer(bytes: expected))
        }
        #expect(routes.cache.hitsAndMisses.misses == 1)
        let hits = routes.cache.hitsAndMisses.hits
        #expect(routes.warmPage(tarixPage, headers: [:])?.body.map { Array($0.readableBytesView) } == expected)
        #expect(routes.cache.hitsAndMisses.hits == hits + 1)
    }

    @Test func smallPureParts() {
        #expect(DateHeader.format(784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(DateHeader.format(0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(ContentTypes.of("a/b/page.HTML") == "text/html; charset=utf-8")
        #expect(ContentTypes.of("a.b/page") == "application/octet-stream")
        #expect(ContentTypes.of("style.css") == "text/css; charset=utf-8")
        #expect(ContentTypes.of("noext.") == "application/octet-stream")
        #expect(ContentTypes.field(of: "x/y.png").value == "image/png")
        #expect(Routes.etagText("Name@1/a b\"%.html") == "Name@1/a%20b%22%25.html")
        #expect(Routes.etagText("Name@1/plain.html") == "Name@1/plain.html")
        // Two hex digits per escape: a tab then "B" must not read as the byte 0xAB.
        #expect(Routes.etagText("a\tB") == "a%09B")
        #expect(Routes.etagText("a\tB") != Routes.etagText("a\u{AB}"))
    }
}
