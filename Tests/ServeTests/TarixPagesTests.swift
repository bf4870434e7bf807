import DocSync
import DocSyncMetrics
import Foundation
import NIOCore
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@testable import DocSyncServe

/// Pages of a tarix docset over real HTTP (inflated once, then from the server's page cache, with the same headers,
/// ranges and conditional GETs as extracted pages); the page cache's byte bound; `/api/` 503s as JSON; the serve
/// metrics in the `[metrics] textfile`, beside the sync run's.
@Suite(.timeLimit(.minutes(10))) struct TarixPagesTests {
    @Test func tarixPagesAreServedLikeExtractedOnesAndCounted() async throws {
        let h = try ServeHarness()
        defer { h.remove() }
        let metrics = h.dir.appending("docsync.prom")
        try MetricsTextFile.write(RunMetrics(lastSuccess: 1, finished: 2, durationSeconds: 1, result: "ok"), to: metrics)
        let v1 = try await h.install("A", version: "1", layout: .tarix)
        #expect(v1.layout == .tarix)
        try await h.start(observers: [MetricsTextFileObserver(path: metrics)])
        let version = ServeHarness.versionName(v1)
        let url = "/d/\(version)/section1/page1.html"

        let expected = try await v1.contents(of: "section1/page1.html")
        #expect(!expected.isEmpty)
        let first = try await h.http.get(url)
        #expect(first.status == 200 && first.body == expected)
        #expect(first.header("Content-Type") == "text/html; charset=utf-8")
        let etag = try #require(first.header("ETag"))
        #expect(etag == "\"\(version)/section1/page1.html\"")
        // The second answer comes from the page cache: the same bytes, ranges and tags.
        let again = try await h.http.get(url)
        #expect(again.status == 200 && again.body == expected)
        let part = try await h.http.get(url, headers: ["Range": "bytes=5-14"])
        #expect(part.status == 206 && part.body == Array(expected[5..<15]))
        #expect(part.header("Content-Range") == "bytes 5-14/\(expected.count)")
        #expect(try await h.http.get(url, headers: ["If-None-Match": etag]).status == 304)
        // What is not a page of the store is 404, as in the extracted layout.
        #expect(try await h.http.get("/d/\(version)/section1/nope.html").status == 404)
        #expect(try await h.http.get("/d/\(version)/section1").status == 404)
        #expect(try await h.http.get("/d/\(version)/..%2F..%2Fmeta.json").status == 404)
        let other = try await h.http.get("/d/\(version)/page0.html")
        let page0 = try await v1.contents(of: "page0.html")
        #expect(other.status == 200 && other.body == page0)
        try await h.stop()

        // Stopping wrote the server's totals into the metrics file; the sync run's lines are still there.
        let samples = try MetricsSamples.parse(metrics)
        #expect(samples["docsync_last_run_result{result=\"ok\"}"] == 1)
        #expect(samples["docsync_serve_requests_total{route=\"pages\",status=\"2xx\"}"] == 4)
        #expect(samples["docsync_serve_requests_total{route=\"pages\",status=\"3xx\"}"] == 1)  // the 304
        #expect(samples["docsync_serve_requests_total{route=\"pages\",status=\"4xx\"}"] == 3)
        #expect(samples["docsync_serve_requests_total{route=\"search\",status=\"2xx\"}"] == 0)
        #expect(samples["docsync_serve_request_duration_seconds_count"] == 8)
        #expect(samples["docsync_serve_request_duration_seconds_bucket{le=\"+Inf\"}"] == 8)
        #expect(samples["docsync_serve_rejected_total{queue=\"reads\"}"] == 0)
        #expect(samples["docsync_serve_page_cache_hits_total"] == 3, "the second GET, the range and the 304")
        #expect((samples["docsync_serve_page_cache_bytes"] ?? 0) >= Double(expected.count))
        let text = try String(contentsOfFile: metrics, encoding: .utf8)
        #expect(text.contains("# TYPE docsync_serve_request_duration_seconds histogram"))
        #expect(text.contains("# TYPE docsync_last_run_result gauge"))

        // A sync run's rewrite keeps the server's lines in turn.
        try MetricsTextFile.write(RunMetrics(lastSuccess: 3, finished: 4, durationSeconds: 1, result: "failed"), to: metrics)
        let after = try MetricsSamples.parse(metrics)
        #expect(after["docsync_last_run_result{result=\"failed\"}"] == 1)
        #expect(after["docsync_serve_requests_total{route=\"pages\",status=\"2xx\"}"] == 4)
    }

    @Test func thePageReaderKeepsABoundedNumberOfVersionFoldersOpen() async throws {
        let h = try ServeHarness()
        defer { h.remove() }
        let a = try await h.install("A", version: "1")
        let b = try await h.install("B", version: "1", layout: .tarix)
        let c = try await h.install("C", version: "1")
        let reader = PageReader(capacity: 2)
        // Not kept yet: no answer without blocking; then opened (and kept) by the blocking open.
        #expect(try reader.openIfCached("page0.html", of: a) == nil)
        for docset in [a, b, c, a] {
            let expected = try await docset.contents(of: "page0.html")
            switch try reader.open("page0.html", of: docset, immutable: true) {
            case .bytes(let bytes): #expect(docset.name == "B" && bytes == expected)
            case .file(let descriptor, let size):
                defer { close(descriptor) }
                var bytes = [UInt8](repeating: 0, count: size)
                #expect(pread(descriptor, &bytes, size, 0) == size && bytes == expected && docset.name != "B")
            }
            #expect(reader.keptFolders <= 2)
        }
        // A kept extracted folder answers without blocking (its dentries are cached by the reads above); so does a
        // kept tarix one for a small page whose compressed bytes are cached (inflated on the caller's thread), and
        // errors are the same as the blocking open's.
        let warm = try reader.openIfCached("page0.html", of: a)
        if case .file(let descriptor, _)? = warm { close(descriptor) } else { Issue.record("not answered: \(String(describing: warm))") }
        #expect(try reader.openIfCached("page0.html", of: b) == nil, "B was dropped: not kept")
        let page0 = try await b.contents(of: "page0.html")
        _ = try reader.open("page0.html", of: b, immutable: true)
        guard case .bytes(let inline)? = try reader.openIfCached("page0.html", of: b) else {
            Issue.record("a small tarix page of a kept store was not inflated inline")
            return
        }
        #expect(inline == page0)
        #expect(try reader.openIfCached("nope.html", of: b) == nil, "not in the map: the blocking open decides")
        #expect(throws: DocumentError.notFound) { try reader.open("nope.html", of: b, immutable: true) }
        #expect(throws: DocumentError.invalidPath) { try reader.openIfCached("../B.docset/meta.json", of: b) }
        #expect(throws: DocumentError.notFound) { try reader.open("nope.html", of: a, immutable: true) }
        #expect(throws: DocumentError.invalidPath) { try reader.openIfCached("../A.docset/meta.json", of: a) }
    }

    @Test func thePageCacheChargesExactSizesAndStaysWithinItsBudget() {
        let cache = PageCache(capacity: 64 << 10)
        func page(_ size: Int) -> ByteBuffer { ByteBuffer(bytes: [UInt8](repeating: 7, count: size)) }
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        var sizes: [String: Int] = [:]
        for k in 0..<500 {
            let key = "V@1/\(k % 120)"
            if cache.get(key) == nil {
                let size = Int.random(in: 1...3000, using: &random)
                sizes[key] = size
                cache.put(key, page(size))
            }
            #expect(cache.bytes <= cache.capacity, "seed \(random.seed)")
        }
        // Each kept page is charged its bytes, its key and 64 bytes, and kept in an array of its length.
        var charged = 0
        for (key, size) in sizes {
            if let kept = cache.get(key) {
                #expect(kept.count == size && kept.allSatisfy { $0 == 7 })
                charged += size + key.utf8.count + 64
            }
        }
        #expect(charged == cache.bytes && cache.count > 5, "seed \(random.seed)")
        // A page over an eighth of the budget is not kept; offering a kept key again does not count it twice.
        cache.put("V@1/big", page(9 << 10))
        #expect(cache.get("V@1/big") == nil)
        let before = cache.bytes
        if let (key, _) = sizes.first(where: { cache.get($0.key) != nil }) {
            cache.put(key, page(10))
            #expect(cache.bytes == before && cache.get(key)?.count == sizes[key])
        }
        let none = PageCache(capacity: 0)
        none.put("x", page(1))
        #expect(none.get("x") == nil && none.bytes == 0)
    }

    @Test func aScanKeepsPagesInsteadOfCyclingThemOutAndAHotPageGetsIn() {
        // 300 pages of 1 KiB read in turn, ten times, through a cache holding about a third of them: LRU would hit
        // nothing (each page is evicted before its turn comes again); CLOCK with the admission rule keeps what it
        // holds, so nearly a third of the requests hit.
        let cache = PageCache(capacity: 100 << 10)
        let body = ByteBuffer(bytes: [UInt8](repeating: 1, count: 1000))
        var hits = 0
        for round in 0..<10 {
            for k in 0..<300 {
                if cache.get("S@1/\(k)") != nil {
                    if round > 0 { hits += 1 }
                } else {
                    cache.put("S@1/\(k)", body)
                }
            }
        }
        #expect(hits >= 9 * 300 / 5, "hits in rounds 2-10: \(hits) of \(9 * 300)")
        #expect(cache.bytes <= cache.capacity && cache.rejected > 0)
        let (counted, misses) = cache.hitsAndMisses
        #expect(counted == hits && misses == 3000 - hits)

        // Pages read once fill a cache; a page read more often than they were displaces some of them.
        let small = PageCache(capacity: 16 << 10)
        for k in 0..<40 where small.get("C@1/\(k)") == nil { small.put("C@1/\(k)", body) }
        #expect(small.get("C@1/hot") == nil)
        var kept = false
        for _ in 0..<4 where !kept {
            if small.get("C@1/hot") != nil { kept = true } else { small.put("C@1/hot", body) }
        }
        #expect(kept, "a page requested four times got in")
        #expect(small.bytes <= small.capacity)
    }

    @Test func aFullSearchQueueIsAJSONError() throws {
        let busy = Routes.busy(json: true)
        #expect(busy.status == .serviceUnavailable)
        #expect(busy.headers[.retryAfter] == "1")
        #expect(busy.headers[.contentType] == "application/json; charset=utf-8")
        let body = try #require(busy.body.contentLength)
        #expect(body > 0)
        let plain = Routes.busy()
        #expect(plain.headers[.contentType] == "text/plain; charset=utf-8")
    }

    @Test func servedMetricsRenderAsPrometheusText() throws {
        var stats = ServeStats()
        stats.requests["search"]!["5xx"] = 2
        stats.rejected["searches"] = 2
        stats.durationBuckets = Array(repeating: 2, count: ServeStats.durationBounds.count)
        stats.durationCount = 2
        stats.durationSum = 0.0005
        let text = String(decoding: MetricsTextFile.render(stats), as: UTF8.self)
        #expect(text.contains("docsync_serve_requests_total{route=\"search\",status=\"5xx\"} 2\n"))
        #expect(text.contains("docsync_serve_rejected_total{queue=\"searches\"} 2\n"))
        #expect(text.contains("docsync_serve_request_duration_seconds_bucket{le=\"0.001\"} 2\n"))
        // The merge keeps whole families of the other writer and replaces its own.
        let merged = MetricsTextFile.merge(
            "# HELP docsync_a A.\n# TYPE docsync_a gauge\ndocsync_a 1\n# TYPE docsync_serve_x counter\ndocsync_serve_x 5\n",
            serve: true, with: "# TYPE docsync_serve_y counter\ndocsync_serve_y 6\n")
        #expect(merged == "# HELP docsync_a A.\n# TYPE docsync_a gauge\ndocsync_a 1\n# TYPE docsync_serve_y counter\ndocsync_serve_y 6\n")
        let run = MetricsTextFile.merge(merged, serve: false, with: "docsync_b 2\n")
        #expect(run == "docsync_b 2\n# TYPE docsync_serve_y counter\ndocsync_serve_y 6\n")
    }
}
