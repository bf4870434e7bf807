import DocSync
import DocSyncFeed
import Foundation
import TestSupport
import Testing

/// `FeedFetcher` through its transport seam, against a `MemoryOrigin` (no socket): parsing from memory with the fetched
/// URL as the base, and errors naming the URL.
@Suite(.timeLimit(.minutes(10)))
struct FeedFetcherTests {
    @Test func fetchesAndParsesWithTheURLAsBase() async throws {
        let directory = try TemporaryDirectory("docsync-feed-test")
        defer { directory.remove() }
        directory.write(
            "rel.atom",
            "<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry><link rel=\"enclosure\" href=\"x/a.xar\"/></entry></feed>"
        )
        directory.write("Go.xml", "<entry><version>1.22/4</version><url>Go.tgz</url></entry>")
        let origin = MemoryOrigin(root: directory.path)

        let atom = try await FeedFetcher.fetch(url: origin.url("rel.atom"), transport: origin.transport)
        #expect(atom.entries.first?.archives == [FeedArchive(url: origin.url("x/a.xar"))])
        let dash = try await FeedFetcher.fetch(url: origin.url("Go.xml"), transport: origin.transport)
        #expect(dash.name == "Go")
        #expect(dash.entries.first?.archives == [FeedArchive(url: origin.url("Go.tgz"))])
    }

    @Test func namesTheURLInFetchErrors() async throws {
        let directory = try TemporaryDirectory("docsync-feed-test")
        defer { directory.remove() }
        directory.write("big.atom", FeedXML.atom(String(repeating: "<entry/>", count: 1000)))
        directory.write("bad.atom", "<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry>")
        let origin = MemoryOrigin(root: directory.path)

        await #expect(throws: FeedError(feed: origin.url("missing.atom"), reason: .httpStatus(404))) {
            try await FeedFetcher.fetch(url: origin.url("missing.atom"), transport: origin.transport)
        }
        await #expect(throws: FeedError(feed: origin.url("big.atom"), reason: .tooLarge(limit: 1024))) {
            try await FeedFetcher.fetch(
                url: origin.url("big.atom"), limits: FeedLimits(maxBytes: 1024), transport: origin.transport)
        }
        await #expect(throws: FeedError(feed: origin.url("bad.atom"), line: 1, column: 50, reason: .truncated)) {
            try await FeedFetcher.fetch(url: origin.url("bad.atom"), transport: origin.transport)
        }
    }
}
