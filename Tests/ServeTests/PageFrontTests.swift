import DocSync
import NIOCore
import NIOEmbedded
import NIOHTTP1
import TestSupport
import Testing

@testable import DocSyncServe

/// ``PageFront``: which heads it splits off before NIO's HTTP/1 decoder (``RawRequestHead``, a table), and, in the
/// server's own pipeline on an embedded channel, that a plain `GET` of a remembered page is answered there with the
/// bytes the decoded path answers (modulo `Date`), while `HEAD`, conditional, range, query, close, 404, traversal
/// and API requests go on to the decoder and are answered as before, in order behind an unanswered request.
@Suite(.timeLimit(.minutes(10))) struct PageFrontTests {
    @Test func headsAreSplitOffOnlyWhenTheDecoderWouldReadThemAlike() {
        let page = "GET /d/A@1/p.html HTTP/1.1\r\n"
        let table: [(String, RawRequestHead.Kind)] = [
            (page + "Host: x\r\n\r\n", .plainPage(target: 4..<17)),
            (page + "\r\n", .plainPage(target: 4..<17)),
            (
                page + "Host: x\r\nConnection: Keep-Alive \r\nCookie: a=b; c=\"d\"\r\nX-Tab:\tv\r\n\r\n",
                .plainPage(target: 4..<17)
            ),
            (page + "Connection: close\r\n\r\n", .other),
            (page + "If-None-Match: \"t\"\r\n\r\n", .other),
            (page + "range: bytes=0-1\r\n\r\n", .other),
            (page + "IF-RANGE: \"t\"\r\n\r\n", .other),
            ("HEAD /d/A@1/p.html HTTP/1.1\r\n\r\n", .other),
            ("GET /d/A@1/p.html?x=1 HTTP/1.1\r\n\r\n", .other),
            ("GET /d/A@1/p.html#x HTTP/1.1\r\n\r\n", .other),
            ("GET /api/docsets HTTP/1.1\r\n\r\n", .other),
            ("GET /d/ HTTP/1.1\r\n\r\n", .other),
            ("POST /mcp HTTP/1.1\r\n\r\n", .other),
            // The decoder's: a body or a protocol switch follows, or not a head this reader vouches for.
            ("POST /mcp HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}", .unknown),
            (page + "Transfer-Encoding: chunked\r\n\r\n", .unknown),
            (page + "Upgrade: h2c\r\n\r\n", .unknown),
            (page + "Expect: 100-continue\r\n\r\n", .unknown),
            // Cut short by the end of the bytes, valid so far: read again with what follows.
            (page + "Host: x\r\n", .incomplete),
            (page + "Host: x\r\n\r", .incomplete),
            (page + "Host: x\r", .incomplete),
            (page + "Host", .incomplete),
            (page, .incomplete),
            ("GET /d/A@1/p.html HTTP/1.", .incomplete),
            ("GET /d/A@1/p.html", .incomplete),
            ("GET ", .incomplete),
            ("GET", .incomplete),
            ("G", .incomplete),
            ("PO", .incomplete),
            ("", .incomplete),
            // Cut short, but already out of place (or too long to wait for).
            ("BRE", .unknown),
            ("GETX", .unknown),
            ("get", .unknown),
            ("GET /d/A@1/p.html HTTP/1.0", .unknown),
            (page + "Host : x", .unknown),
            (page + "X-A: " + String(repeating: "b", count: 4096), .unknown),
            ("GET /d/A@1/p.html HTTP/1.0\r\n\r\n", .unknown),
            ("GET /d/A@1/p.html HTTP/1.1\n\n", .unknown),
            (page + "Host : x\r\n\r\n", .unknown),
            (page + "Host: x\r\n folded\r\n\r\n", .unknown),
            (page + "Host: \u{01}\r\n\r\n", .unknown),
            (page + "Host: caf\u{e9}\r\n\r\n", .unknown),
            (page + "Host: x\ry\r\n\r\n", .unknown),
            ("BREW /d/A@1/p.html HTTP/1.1\r\n\r\n", .unknown),
            ("get /d/A@1/p.html HTTP/1.1\r\n\r\n", .unknown),
            ("GET  /d/A@1/p.html HTTP/1.1\r\n\r\n", .unknown),
            ("GET /d/A@1/p\u{7f}.html HTTP/1.1\r\n\r\n", .unknown),
            (page + String(repeating: "X-A: b\r\n", count: 33) + "\r\n", .unknown),
            (page + "X-A: " + String(repeating: "b", count: 4096) + "\r\n\r\n", .unknown),
        ]
        for (text, kind) in table {
            let bytes = Array(text.utf8)
            let head = bytes.withUnsafeBytes { RawRequestHead.parse($0) }
            #expect(head.kind == kind, "\(text.debugDescription)")
            if kind == .unknown || kind == .incomplete {
                #expect(head.end == 0, "\(text.debugDescription)")
            } else {
                #expect(head.end == bytes.count, "\(text.debugDescription)")
            }
        }
        // Pipelined: the first head ends where the second starts.
        let two = Array((page + "Host: x\r\n\r\nGET /api/docsets HTTP/1.1\r\n\r\n").utf8)
        #expect(two.withUnsafeBytes { RawRequestHead.parse($0) }.end == page.utf8.count + 11)
    }

    /// The server's pipeline (``ServeHTTP1Channel``) on an embedded channel: the front, the response encoder, the
    /// decoder, a recorder of the heads it decoded, the page handler, and a sink standing for the async route.
    final class Pipeline {
        final class Heads: ChannelInboundHandler {
            typealias InboundIn = HTTPServerRequestPart
            var targets: [String] = []
            var errors: [String] = []
            let forward: Bool
            init(forward: Bool) { self.forward = forward }
            func channelRead(context: ChannelHandlerContext, data: NIOAny) {
                if case .head(let head) = unwrapInboundIn(data) { targets.append(head.uri) }
                if forward { context.fireChannelRead(data) }
            }
            func errorCaught(context: ChannelHandlerContext, error: any Error) {
                errors.append(String(describing: error))
                if forward { context.fireErrorCaught(error) }
            }
        }

        let channel = EmbeddedChannel()
        let decoded = Heads(forward: true)
        let passedOn = Heads(forward: false)

        init(_ fast: PageFastPath, splitting: Bool) throws {
            let connection = PageChannelHandler(
                pages: fast, timeouts: ConnectionTimeouts(idle: .seconds(60), header: .seconds(60), body: .seconds(60)),
                connections: IdleConnections(
                    budget: ConnectionBudget.of(configured: 64, descriptors: 65_536, remembered: 0)))
            let operations = channel.pipeline.syncOperations
            try operations.addHandler(PageFront(connection: connection, splitting: splitting))
            try operations.addHandler(HTTPResponseEncoder(configuration: .init()))
            try operations.addHandler(ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes)))
            try operations.addHandler(decoded)
            try operations.addHandler(connection)
            try operations.addHandler(passedOn)
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 80)).wait()
        }

        /// Sends `text` in one read and returns what was written back (every answer, concatenated).
        func send(_ text: String) throws -> [UInt8] {
            try channel.writeInbound(ByteBuffer(string: text))
            var out: [UInt8] = []
            while let part = try channel.readOutbound(as: ByteBuffer.self) { out += Array(part.readableBytesView) }
            return out
        }
    }

    @Test func plainGetsAreAnsweredBeforeTheDecoderAsTheDecodedPathAnswersThem() async throws {
        let h = try ServeHarness()
        defer { h.remove() }
        let v1 = try await h.install("A", version: "1")
        let t1 = try await h.install("T", version: "1", layout: .tarix)
        let f = PageHeadsTests.Fixture(h)
        defer { f.shutdown() }
        let version = ServeHarness.versionName(v1)
        let tarix = ServeHarness.versionName(t1)
        let target = "/d/\(version)/section1/page1.html"
        let expected = try await v1.contents(of: "section1/page1.html")
        _ = try f.routes.reader.open("section1/page1.html", of: v1, immutable: true)
        _ = try f.routes.reader.open("page0.html", of: t1, immutable: true)
        f.routes.cache.put("\(tarix)/page0.html", ByteBuffer(bytes: try await t1.contents(of: "page0.html")))
        let tarixTarget = "/d/\(tarix)/page0.html"
        _ = try #require(f.answer(.GET, target))  // remembered (PageHeads)
        _ = try #require(f.answer(.GET, tarixTarget))
        #expect(f.fast.heads.count == 2)

        // (request, plain GET): a plain GET is answered before the decoder when the decoded path answers it on the
        // event loop (remembered, or warm: page0.html is read for the first time), any other goes on to it.
        let requests: [(String, plain: Bool)] = [
            ("GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n", true),
            ("GET \(target) HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\nUser-Agent: t\r\n\r\n", true),
            ("GET \(tarixTarget) HTTP/1.1\r\nHost: x\r\n\r\n", true),
            ("HEAD \(target) HTTP/1.1\r\nHost: x\r\n\r\n", false),
            ("GET \(target) HTTP/1.1\r\nHost: x\r\nIf-None-Match: \"\(version)/section1/page1.html\"\r\n\r\n", false),
            ("GET \(target) HTTP/1.1\r\nHost: x\r\nIf-None-Match: \"other\"\r\n\r\n", false),
            ("GET \(target) HTTP/1.1\r\nHost: x\r\nRange: bytes=2-5\r\n\r\n", false),
            ("GET \(target) HTTP/1.1\r\nHost: x\r\nRange: bytes=99999-\r\n\r\n", false),
            ("GET \(target)?q=1 HTTP/1.1\r\nHost: x\r\n\r\n", false),
            ("GET \(target) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", false),
            ("GET /api/docsets HTTP/1.1\r\nHost: x\r\n\r\n", false),
            ("GET /d/\(version)/page0.html HTTP/1.1\r\nHost: x\r\n\r\n", true),
            ("GET /d/\(version)/nope.html HTTP/1.1\r\nHost: x\r\n\r\n", true),
            ("GET /d/\(version)/..%2F..%2FInfo.plist HTTP/1.1\r\nHost: x\r\n\r\n", true),
            ("GET /d/\(version)/section1/../section1/page1.html HTTP/1.1\r\nHost: x\r\n\r\n", true),
            ("GET /d/\(version)/../../Info.plist HTTP/1.1\r\nHost: x\r\n\r\n", true),
            ("GET /d/A/page0.html HTTP/1.1\r\nHost: x\r\n\r\n", true),
            ("GET /d/\(version)/a|b{c}^`.html HTTP/1.1\r\nHost: x\r\n\r\n", true),
            ("GET /d/\(version)/page0.html#top HTTP/1.1\r\nHost: x\r\n\r\n", false),
        ]
        var front = 0
        for (request, plain) in requests {
            let split = try Pipeline(f.fast, splitting: true)
            let decoded = try Pipeline(f.fast, splitting: false)
            let a = try split.send(request)
            let b = try decoded.send(request)
            #expect(PageHeadsTests.withoutDate(a) == PageHeadsTests.withoutDate(b), "\(request.debugDescription)")
            let answeredHere = decoded.passedOn.targets.isEmpty
            #expect(split.decoded.targets.isEmpty == (plain && answeredHere), "\(request.debugDescription)")
            #expect(decoded.decoded.targets.count == 1)
            #expect(split.passedOn.targets == decoded.passedOn.targets, "the same requests reach the async route")
            if split.decoded.targets.isEmpty { front += 1 }
        }
        #expect(front == 4, "the three remembered pages and page0.html, read warm")
        let reply = try RawHTTP.parse(try Pipeline(f.fast, splitting: true).send(requests[0].0))
        #expect(reply.status == 200 && reply.body == expected && reply.header("Content-Length") == "\(expected.count)")

        // Pipelined in one read: answered in order; a request behind one the async route has not answered yet
        // waits behind it (through the decoder), and so does everything after it.
        let plain = requests[0].0
        let batch = try Pipeline(f.fast, splitting: true)
        let api = "GET /api/docsets HTTP/1.1\r\nHost: x\r\n\r\n"
        let out = try batch.send(plain + requests[3].0 + plain + api + plain + plain)
        let single = try Pipeline(f.fast, splitting: false).send(plain)
        let head = try Pipeline(f.fast, splitting: false).send(requests[3].0)
        #expect(PageHeadsTests.withoutDate(out) == PageHeadsTests.withoutDate(single + head + single))
        #expect(batch.decoded.targets == [target, "/api/docsets", target, target])
        #expect(batch.passedOn.targets == ["/api/docsets", target, target])

        // A body ends the splitting for the connection: what follows is decoded, and answered the same.
        let bodied = try Pipeline(f.fast, splitting: true)
        _ = try bodied.send("POST /nope HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}")
        #expect(bodied.passedOn.targets == ["/nope"])
        #expect(bodied.decoded.targets == ["/nope"])
    }

    @Test func aHeadInPiecesIsReadWhenWholeAndAnsweredAsTheDecodedPathAnswersIt() async throws {
        let h = try ServeHarness()
        defer { h.remove() }
        let v1 = try await h.install("A", version: "1")
        let f = PageHeadsTests.Fixture(h)
        defer { f.shutdown() }
        let target = "/d/\(ServeHarness.versionName(v1))/page0.html"
        _ = try f.routes.reader.open("page0.html", of: v1, immutable: true)
        _ = try #require(f.answer(.GET, target))
        let request = "GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n"
        let expected = PageHeadsTests.withoutDate(try Pipeline(f.fast, splitting: false).send(request))

        // Every cut of a head, and of two pipelined heads: the same answers, none decoded.
        let two = request + request
        for cut in 0...two.utf8.count {
            let pieces = try Pipeline(f.fast, splitting: true)
            let bytes = Array(two.utf8)
            var out = try pieces.send(String(decoding: bytes[..<cut], as: UTF8.self))
            out += try pieces.send(String(decoding: bytes[cut...], as: UTF8.self))
            #expect(PageHeadsTests.withoutDate(out) == expected + expected, "cut at \(cut)")
            #expect(pieces.decoded.targets.isEmpty, "cut at \(cut): split off, not decoded")
        }
        // A byte at a time, then whole: still split off.
        let trickled = try Pipeline(f.fast, splitting: true)
        var out: [UInt8] = []
        for byte in request.utf8 { out += try trickled.send(String(decoding: [byte], as: UTF8.self)) }
        out += try trickled.send(request)
        #expect(PageHeadsTests.withoutDate(out) == expected + expected)
        #expect(trickled.decoded.targets.isEmpty)

        // A head in pieces that turns out to be the decoder's (a body follows it) goes to it whole and in order, and
        // so does everything after it (here behind the async route's answer, which the sink never gives).
        let post = "POST /nope HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}"
        let bodied = try Pipeline(f.fast, splitting: true)
        _ = try bodied.send(String(post.prefix(20)))
        _ = try bodied.send(String(post.dropFirst(20)))
        #expect(try bodied.send(request).isEmpty)
        #expect(bodied.decoded.targets == ["/nope", target])
        #expect(bodied.passedOn.targets == ["/nope", target])

        // A head cut short when the input ends reaches the decoder, as it did when it was never held.
        for splitting in [true, false] {
            let cut = try Pipeline(f.fast, splitting: splitting)
            _ = try cut.send(request + String(request.prefix(25)))
            cut.channel.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
            #expect(cut.decoded.errors.count == 1, "splitting: \(splitting): \(cut.decoded.errors)")
            #expect(cut.decoded.targets == (splitting ? [] : [target]))
        }
    }
}
