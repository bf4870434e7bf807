import DocSyncFeed
import TestSupport
import Testing

/// Every refusal is a typed error naming the feed, the line and (where libxml2 knows it) the column.
@Suite(.timeLimit(.minutes(10)))
struct FeedErrorTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let rule: String
        let xml: String
        var limits = FeedLimits()
        let error: FeedError
        var testDescription: String { rule }
    }

    static let url = "https://h.example/feeds/x.atom"

    static func error(_ line: Int?, _ column: Int?, _ reason: FeedError.Reason) -> FeedError {
        FeedError(feed: url, line: line, column: column, reason: reason)
    }

    static func error(_ line: Int?, _ reason: FeedError.Reason) -> FeedError {
        FeedError(feed: url, line: line, column: nil, reason: reason)
    }

    static func nested(_ depth: Int) -> String {
        FeedXML.atom(String(repeating: "<x>", count: depth) + String(repeating: "</x>", count: depth))
    }

    static let rows: [Row] = [
        Row(
            rule: "invalid docset:sha256",
            xml: FeedXML.atom("<entry>\n\n<docset:sha256>abc</docset:sha256></entry>"),
            error: error(3, .invalidChecksum(element: "docset:sha256", value: "abc"))),
        Row(
            rule: "invalid Dash sha256",
            xml: "<entry>\n<version>1</version><url>http://h/a.tgz</url><sha256>xyz</sha256></entry>",
            error: error(2, .invalidChecksum(element: "sha256", value: "xyz"))),
        Row(
            rule: "RSS is not a docset feed",
            xml: "<?xml version=\"1.0\"?>\n<rss version=\"2.0\"><channel/></rss>",
            error: error(2, .unknownRootElement(name: "rss", namespace: nil))),
        Row(
            rule: "a feed element outside the Atom namespace is unknown",
            xml: "<feed xmlns=\"http://purl.org/atom/ns#\"/>",
            error: error(1, .unknownRootElement(name: "feed", namespace: "http://purl.org/atom/ns#"))),
        Row(
            rule: "Dash feed without a version",
            xml: "<entry>\n<url>http://h/a.tgz</url></entry>",
            error: error(1, .missingRequiredElement("version"))),
        Row(
            rule: "Dash feed without a URL",
            xml: "<entry><version>1</version>\n<url>  </url></entry>",
            error: error(1, .missingRequiredElement("url"))),
        Row(
            rule: "not XML at all",
            xml: "hello, world",
            error: error(1, 1, .notXML(code: 4, message: "Document is empty"))),
        Row(
            rule: "mismatched tags",
            xml: FeedXML.atom("<entry><id>x</entry>"),
            error: error(1, 128, .notXML(code: 76, message: "Opening and ending tag mismatch: id line 1 and entry"))),
        Row(
            rule: "an undeclared entity is not expanded, it is an error",
            xml: FeedXML.atom("<title>&secret;</title>"),
            error: error(1, 123, .notXML(code: 26, message: "Entity 'secret' not defined"))),
        Row(
            rule: "truncated inside an element",
            xml: String(FeedXML.atom("<entry><id>tag:x,2017:a</id><title>Some docs</title></entry>").dropLast(30)),
            error: error(1, 145, .truncated)),
        Row(
            rule: "truncated before the root element ends",
            xml: "<entry><version>1</version>\n<url>http://h/a.tgz</url>\n",
            error: error(2, 26, .truncated)),
        Row(
            rule: "content after the root element",
            xml: "<entry><version>1</version><url>u</url></entry>\n<entry/>",
            error: error(2, 1, .notXML(code: 5, message: "Extra content at the end of the document"))),
        Row(
            rule: "bytes that do not decode in the declared encoding (no position: libxml2 has none)",
            xml: "<?xml version=\"1.0\" encoding=\"Shift_JIS\"?>\n\(FeedXML.atom("<title>\u{FFFF}</title>"))",
            error: error(
                nil, nil,
                .notXML(code: 6003, message: "input conversion failed due to input error, bytes 0xEF 0xBF 0xBF 0x3C"))),
        Row(
            rule: "deeper than the depth cap",
            xml: nested(70),
            error: error(1, .tooDeep(limit: 64))),
        Row(
            rule: "depth cap configurable",
            xml: nested(3), limits: FeedLimits(maxDepth: 3),
            error: error(1, .tooDeep(limit: 3))),
        Row(
            rule: "over the size cap",
            xml: FeedXML.atom(String(repeating: "<entry/>", count: 100)), limits: FeedLimits(maxBytes: 512),
            error: error(nil, .tooLarge(limit: 512))),
        Row(
            rule: "a DOCTYPE is refused where it starts",
            xml: "<?xml version=\"1.0\"?>\n  <!DOCTYPE feed>\n<feed xmlns=\"http://www.w3.org/2005/Atom\"/>",
            error: error(2, 3, .doctypeForbidden)),
    ]

    @Test(arguments: rows)
    func refuses(_ row: Row) {
        #expect(throws: row.error) { try FeedXML.parse(row.xml, url: Self.url, limits: row.limits) }
    }

    @Test func acceptsAFeedExactlyAtTheSizeCap() throws {
        let xml = FeedXML.atom("<entry/>")
        let document = try FeedXML.parse(xml, limits: FeedLimits(maxBytes: xml.utf8.count))
        #expect(document.entries.count == 1)
    }

    @Test func namesTheFileAndItsErrno() throws {
        let directory = try TemporaryDirectory("docsync-feed-test")
        defer { directory.remove() }
        let missing = directory.path + "/missing.xml"
        #expect(throws: FeedError(feed: missing, reason: .unreadable(errno: 2, message: "No such file or directory"))) {
            try FeedParser.parse(fileAt: missing, documentURL: nil)
        }
        #expect(throws: FeedError(feed: directory.path, reason: .unreadable(errno: 21, message: "Is a directory"))) {
            try FeedParser.parse(fileAt: directory.path, documentURL: nil)
        }
    }

    @Test func describesTheFeedAndPosition() {
        let error = FeedError(feed: "Feeds/x.atom", line: 3, column: 7, reason: .truncated)
        #expect(error.description == "Feeds/x.atom:3:7: the document ends too early (truncated)")
        let noPosition = FeedError(feed: "https://h/x.xml", reason: .httpStatus(404))
        #expect(noPosition.description == "https://h/x.xml: fetch failed: HTTP status 404")
        let long = FeedError(
            feed: "f", line: 1, reason: .invalidDate(element: "updated", value: String(repeating: "9", count: 1000)))
        #expect(long.description == "f:1: <updated> is not an RFC 3339 date: \"\(String(repeating: "9", count: 80))…\"")
    }

    @Test func keepsGoingAfterAFailedFeed() throws {
        #expect(throws: FeedError.self) { try FeedXML.parse("<feed") }
        #expect(try FeedXML.parse(FeedXML.atom("<entry/>")).entries.count == 1)
    }
}
