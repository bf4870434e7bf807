import DocSyncFeed
import Foundation
import TestSupport
import Testing

/// `FeedFetcher` against a real nginx on loopback: parsing from memory with the fetched URL as the base.
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
        let nginx = try Nginx(root: directory.path)
        defer { nginx.stop() }

        let atom = try await FeedFetcher.fetch(url: nginx.url("rel.atom"))
        #expect(atom.entries.first?.archives == [FeedArchive(url: nginx.url("x/a.xar"))])
        let dash = try await FeedFetcher.fetch(url: nginx.url("Go.xml"))
        #expect(dash.name == "Go")
        #expect(dash.entries.first?.archives == [FeedArchive(url: nginx.url("Go.tgz"))])
    }

    @Test func namesTheURLInFetchErrors() async throws {
        let directory = try TemporaryDirectory("docsync-feed-test")
        defer { directory.remove() }
        directory.write("big.atom", FeedXML.atom(String(repeating: "<entry/>", count: 1000)))
        directory.write("bad.atom", "<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry>")
        let nginx = try Nginx(root: directory.path)
        defer { nginx.stop() }

        await #expect(throws: FeedError(feed: nginx.url("missing.atom"), reason: .httpStatus(404))) {
            try await FeedFetcher.fetch(url: nginx.url("missing.atom"))
        }
        await #expect(throws: FeedError(feed: nginx.url("big.atom"), reason: .tooLarge(limit: 1024))) {
            try await FeedFetcher.fetch(url: nginx.url("big.atom"), limits: FeedLimits(maxBytes: 1024))
        }
        await #expect(throws: FeedError(feed: nginx.url("bad.atom"), line: 1, column: 50, reason: .truncated)) {
            try await FeedFetcher.fetch(url: nginx.url("bad.atom"))
        }
    }
}
