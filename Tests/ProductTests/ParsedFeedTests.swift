import DocSync
import Foundation
import Testing

/// `ParsedFeed`, the product's feed reader (what `docsync feed parse` prints), used as a library user would.
@Suite(.timeLimit(.minutes(10))) struct ParsedFeedTests {
    /// A fresh folder holding `files`; removed by the caller.
    private func folder(_ files: [String: String]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("docsync-feed-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for (name, text) in files { try Data(text.utf8).write(to: URL(fileURLWithPath: "\(path)/\(name)")) }
        return path
    }

    @Test func aDashFeedParsesIntoTheProductsValues() throws {
        let dir = try folder([
            "Swift.xml": """
            <entry><version>5.10/3</version>
            <url>http://a.example/feeds/Swift.tgz</url><url>http://b.example/feeds/Swift.tgz</url>
            <other-versions><version><name>5.10</name></version><version><name>5.9</name></version></other-versions>
            </entry>
            """
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let feed = try ParsedFeed.parse(fileAt: "\(dir)/Swift.xml")
        #expect(feed.format == .dash && feed.name == "Swift" && feed.warnings.isEmpty)
        let entry = try #require(feed.entries.first)
        #expect(entry.version == "5.10" && entry.revision == "3")
        #expect(entry.archives.map(\.url) == ["http://a.example/feeds/Swift.tgz", "http://b.example/feeds/Swift.tgz"])
        #expect(entry.otherVersions == ["5.10", "5.9"])
    }

    @Test func atomLinksResolveAgainstXMLBaseAndTheBaseURL() throws {
        let dir = try folder([
            "cups.atom": """
            <?xml version="1.0" encoding="UTF-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:docset="http://developer.apple.com/rss/docset_extensions">
              <id>tag:example.org,2017:cups</id><title>CUPS</title><updated>2017-04-06T14:56:28-04:00</updated>
              <entry xml:base="docsets/2.2.0/">
                <id>tag:example.org,2017:cups/2.2.0</id><title>CUPS Documentation</title>
                <updated>2017-04-06T14:56:28-04:00</updated>
                <link rel="enclosure" type="application/octet-stream" href="org.cups.docset.xar" length="1231089"/>
                <docset:identifier>org.cups.docset</docset:identifier><docset:version>2.2.0</docset:version>
              </entry>
            </feed>
            """
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let feed = try ParsedFeed.parse(fileAt: "\(dir)/cups.atom", baseURL: "https://example.org/feeds/cups.atom")
        #expect(feed.format == .atom && feed.title == "CUPS" && feed.name == nil)
        #expect(feed.updated.map(ParsedFeed.dateText) == "2017-04-06T18:56:28Z")
        let entry = try #require(feed.entries.first)
        #expect(entry.identifier == "org.cups.docset" && entry.version == "2.2.0")
        let archive = try #require(entry.archives.first)
        #expect(archive.url == "https://example.org/feeds/docsets/2.2.0/org.cups.docset.xar")
        #expect(archive.length == 1_231_089)
    }

    @Test func failuresSayWhichKindTheyAre() throws {
        let dir = try folder([
            "page.xml": "<html><body>Not found</body></html>", "big.xml": String(repeating: " ", count: 4096),
        ])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(throws: FeedParseError.unreadable) { try ParsedFeed.parse(fileAt: "\(dir)/missing.xml") }
        #expect(throws: FeedParseError.invalidFeed) { try ParsedFeed.parse(fileAt: "\(dir)/page.xml") }
        #expect(throws: FeedParseError.invalidFeed) { try ParsedFeed.parse(fileAt: "\(dir)/big.xml", maxBytes: 1024) }
        do {
            _ = try ParsedFeed.parse(fileAt: "\(dir)/page.xml")
            Issue.record("an HTML page parsed as a feed")
        } catch {
            #expect(error.feed == "\(dir)/page.xml" && error.description.contains("page.xml"))
        }
    }
}
