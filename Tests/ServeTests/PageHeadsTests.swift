import DocSync
import DocSyncSupport
import Foundation
import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@testable import DocSyncServe

/// ``PageHeads``: a plain `GET` of a page the fast path answered from an extracted version folder is answered again
/// from the remembered head, byte for byte the answer the full route gives, and so is a tarix page found in the page
/// cache; conditional, range, `HEAD` and query requests are never remembered; a pruned version's remembered page
/// goes back to the full route (the async route's redirect); the table is bounded.
@Suite(.timeLimit(.minutes(10))) struct PageHeadsTests {
    struct Fixture {
        let routes: Routes
        let fast: PageFastPath
        let reads: BlockingPool
        let searches: BlockingPool

        init(_ h: ServeHarness) {
            reads = BlockingPool(name: "test-read", threads: 1, queueLimit: 8)
            searches = BlockingPool(name: "test-search", threads: 1, queueLimit: 8)
            routes = Routes(
                docsets: ServedDocsets(engine: h.engine), settings: h.configuration.serve!,
                logger: Logger(label: "test"), reads: reads, searches: searches, reader: PageReader(),
                cache: PageCache(capacity: 1 << 20))
            fast = PageFastPath(routes: routes, log: nil, counters: ServeCounters(), heads: PageHeads(capacity: 4))
        }

        func shutdown() {
            reads.shutdown()
            searches.shutdown()
        }

        /// The fast path's answer as one response's bytes (head then body), or nil (the async route's).
        func answer(_ method: HTTPMethod, _ target: String, _ fields: [(String, String)] = []) -> [UInt8]? {
            var head = HTTPRequestHead(version: .http1_1, method: method, uri: target)
            head.headers.add(name: "Host", value: "x")
            for (name, value) in fields { head.headers.add(name: name, value: value) }
            guard let (top, body) = fast.answer(head, allocator: ByteBufferAllocator(), remote: { "-" }) else {
                return nil
            }
            return Array(top.readableBytesView) + (body.map { Array($0.readableBytesView) } ?? [])
        }
    }

    /// The answer without its `Date` line (the only field that may differ between two answers).
    static func withoutDate(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("Date: ") }.joined(separator: "\r\n")
    }

    @Test func aRepeatedPlainGetIsAnsweredFromTheRememberedHeadAsTheFullRouteAnswersIt() async throws {
        let h = try ServeHarness()
        defer { h.remove() }
        let v1 = try await h.install("A", version: "1")
        let t1 = try await h.install("T", version: "1", layout: .tarix)
        let f = Fixture(h)
        defer { f.shutdown() }
        let version = ServeHarness.versionName(v1)
        let target = "/d/\(version)/section1/page1.html"
        let expected = try await v1.contents(of: "section1/page1.html")

        // Not kept yet: nothing answered here, nothing remembered.
        #expect(f.answer(.GET, target) == nil && f.fast.heads.count == 0)
        _ = try f.routes.reader.open("section1/page1.html", of: v1, immutable: true)
        // The full route answers (the page's bytes are cached: the open above read nothing, the fixture wrote it).
        let first = try #require(f.answer(.GET, target))
        #expect(f.fast.heads.count == 1)
        // Its file is kept open without access-time updates (O_NOATIME: the test's user owns the file).
        guard case .file(let file)? = f.fast.heads.get(target)?.body else {
            Issue.record("the page's file is kept open")
            return
        }
        #expect(fcntl(file.descriptor, F_GETFL) & 0o100_0000 != 0)
        let again = try #require(f.answer(.GET, target))
        #expect(Self.withoutDate(again) == Self.withoutDate(first), "the remembered answer is the full route's")
        let reply = try RawHTTP.parse(again)
        #expect(reply.status == 200 && reply.body == expected)
        #expect(reply.header("Content-Length") == "\(expected.count)")
        #expect(reply.header("ETag") == "\"\(version)/section1/page1.html\"")
        #expect(reply.header("Date")?.hasSuffix(" GMT") == true)

        // Conditional, range, HEAD and query requests take the full route (and are not remembered).
        let tag = try #require(reply.header("ETag"))
        let notModified = try #require(f.answer(.GET, target, [("If-None-Match", tag)]))
        #expect(try RawHTTP.parse(notModified, head: true).status == 304)
        let range = try RawHTTP.parse(try #require(f.answer(.GET, target, [("Range", "bytes=0-3")])))
        #expect(range.status == 206 && range.body == Array(expected[0..<4]))
        let head = try RawHTTP.parse(try #require(f.answer(.HEAD, target)), head: true)
        #expect(head.status == 200 && head.header("Content-Length") == "\(expected.count)")
        #expect(try RawHTTP.parse(try #require(f.answer(.GET, target + "?q=1"))).body == expected)
        #expect(f.fast.heads.count == 1)

        // A 404 or a traversal is never remembered.
        #expect(f.answer(.GET, "/d/\(version)/nope.html") == nil)
        #expect(f.answer(.GET, "/d/\(version)/..%2F..%2FInfo.plist") == nil)
        #expect(f.fast.heads.count == 1)

        // A tarix page answered from the page cache is remembered by its cache key (the bytes stay the cache's);
        // evicted, it is inflated again on the spot and offered to the cache.
        let tarix = ServeHarness.versionName(t1)
        let tarixTarget = "/d/\(tarix)/page0.html"
        let tarixBytes = try await t1.contents(of: "page0.html")
        _ = try f.routes.reader.open("page0.html", of: t1, immutable: true)
        f.routes.cache.put("\(tarix)/page0.html", ByteBuffer(bytes: tarixBytes))
        let cached = try #require(f.answer(.GET, tarixTarget))
        #expect(f.fast.heads.count == 2)
        let hits = f.routes.cache.hitsAndMisses.hits
        let cachedAgain = try #require(f.answer(.GET, tarixTarget))
        #expect(f.routes.cache.hitsAndMisses.hits == hits + 1, "the remembered page's bytes are the cache's")
        #expect(Self.withoutDate(cachedAgain) == Self.withoutDate(cached))
        #expect(try RawHTTP.parse(cachedAgain).body == tarixBytes)

        // The same remembered head before a server whose cache does not hold the page (as after an eviction).
        let g = Fixture(h)
        defer { g.shutdown() }
        _ = try g.routes.reader.open("page0.html", of: t1, immutable: true)
        let evicted = PageFastPath(routes: g.routes, log: nil, counters: ServeCounters(), heads: f.fast.heads)
        let request = HTTPRequestHead(version: .http1_1, method: .GET, uri: tarixTarget)
        let inflated = try #require(evicted.answer(request, allocator: ByteBufferAllocator(), remote: { "-" }))
        let bytes = Array(inflated.head.readableBytesView) + (inflated.body.map { Array($0.readableBytesView) } ?? [])
        #expect(Self.withoutDate(bytes) == Self.withoutDate(cached))
        #expect(g.routes.cache.hitsAndMisses.misses == 1 && g.routes.cache.count == 1, "inflated and kept")
        #expect(f.fast.heads.count == 2)

        // A tarix page the cache does not hold, inflated by the full route on the spot, is remembered too: the
        // next request takes the remembered head (and inflates again only if the cache did not keep it).
        let other = "/d/\(tarix)/section1/page1.html"
        let inflatedNow = try #require(f.answer(.GET, other))
        #expect(f.fast.heads.count == 3)
        #expect(try RawHTTP.parse(inflatedNow).body == (try await t1.contents(of: "section1/page1.html")))
        #expect(Self.withoutDate(try #require(f.answer(.GET, other))) == Self.withoutDate(inflatedNow))
    }

    @Test func aPrunedVersionsRememberedPageGoesBackToTheFullRoute() async throws {
        let h = try ServeHarness(grace: "0s")
        defer { h.remove() }
        let v1 = try await h.install("A", version: "1")
        let f = Fixture(h)
        defer { f.shutdown() }
        let target = "/d/\(ServeHarness.versionName(v1))/page0.html"
        _ = try f.routes.reader.open("page0.html", of: v1, immutable: true)
        _ = try #require(f.answer(.GET, target))
        #expect(try RawHTTP.parse(try #require(f.answer(.GET, target))).text.contains("1 page 0"))
        #expect(f.fast.heads.count == 1)
        // Checked by its name in the versions folder (one fstatat), the folder open.
        #expect(f.fast.heads.get(target)?.name == ServeHarness.versionName(v1))
        try await h.install("A", version: "2")
        try await h.prune()
        #expect(!FileManager.default.fileExists(atPath: v1.path), "v1 was pruned")
        // The kept descriptor could still open v1's files (in the trash): the folder's check sends it on.
        #expect(f.answer(.GET, target) == nil, "the async route redirects")
        #expect(f.fast.heads.count == 0)
    }

    @Test func theTableIsBounded() async throws {
        let h = try ServeHarness()
        defer { h.remove() }
        let v1 = try await h.install("A", version: "1")
        let f = Fixture(h)
        defer { f.shutdown() }
        let version = ServeHarness.versionName(v1)
        _ = try f.routes.reader.open("page0.html", of: v1, immutable: true)
        let pages = ["page0.html", "section1/page1.html", "section2/page2.html", "page3.html", "section1/page4.html"]
        for page in pages {
            let expected = try await v1.contents(of: page)
            let reply = try RawHTTP.parse(try #require(f.answer(.GET, "/d/\(version)/\(page)")))
            #expect(reply.status == 200 && reply.body == expected)
        }
        // Capacity 4: the fifth page emptied the table (closing its files), then was kept.
        #expect(f.fast.heads.count == 1)
        // The server's table: a quarter of the open-file limit, whose soft value is raised to the hard one.
        let remembered = DocServer.rememberedPages(descriptors: DocServer.descriptorLimit())
        var limit = rlimit()
        #expect(getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0)
        #expect(limit.rlim_cur == min(limit.rlim_max, 65_536) || limit.rlim_cur > 65_536)
        #expect(remembered == Int(min(4096, limit.rlim_cur / 4)))
    }
}
