import Foundation
import Testing

@testable import DocSyncFeed

/// Lenient where the ecosystem is sloppy: dates as real feeds write them (an unreadable one is dropped with a
/// warning, never rejects the feed), IRIs made URIs, `<published>` when `<updated>` is missing.
@Suite(.timeLimit(.minutes(10)))
struct FeedLeniencyTests {
    static let reference = 1_137_497_709.0  // 2006-01-17T11:35:09Z

    @Test(arguments: [
        ("single-digit second", "2006-01-17T12:35:9+01:00", reference),
        ("single-digit fields", "2006-1-7T2:5:9Z", 1_136_599_509.0),
        ("missing seconds", "2006-01-17T11:35Z", reference - 9),
        ("lowercase t and z", "2006-01-17t11:35:09z", reference),
        ("space instead of T", "2006-01-17 11:35:09Z", reference),
        ("offset without colon", "2006-01-17T12:35:09+0100", reference),
        ("offset hours only", "2006-01-17T12:35:09+01", reference),
        ("no zone is UTC", "2006-01-17T11:35:09", reference),
        ("fraction with single-digit second", "2006-01-17T11:35:9.5Z", reference + 0.5),
        ("RFC 822 with day name", "Tue, 17 Jan 2006 06:35:09 -0500", reference),
        ("RFC 822 GMT", "17 Jan 2006 11:35:09 GMT", reference),
        ("RFC 822 US zone", "Tue, 17 Jan 2006 03:35:09 PST", reference),
        ("RFC 822 two-digit year, no seconds", "17 Jan 06 11:35 UT", reference - 9),
        ("strict RFC 3339 still", "2006-01-17T11:35:09Z", reference),
    ] as [(String, String, Double)])
    func sloppyDatesAreRead(rule: String, text: String, epoch: Double) throws {
        let date = try #require(FeedDate.parseLenient(text), "\(rule)")
        #expect(date.timeIntervalSince1970 == epoch, "\(rule)")
    }

    @Test(arguments: ["yesterday", "2006-13-01T00:00:00Z", "2006-02-30 10:00", "Tue, 32 Jan 2006 00:00:00 GMT",
        "2006-01-17T11:35:09+25:00", "17 Foo 2006 11:35 GMT", ""])
    func nonsenseIsStillNotADate(text: String) {
        #expect(FeedDate.parseLenient(text) == nil)
    }

    @Test func anUnreadableDateDropsTheFieldWithAWarning() throws {
        let xml = FeedXML.atom(
            "<updated>yesterday</updated>\n<entry><title>A</title>\n<updated>around noon</updated>"
                + "<link rel=\"enclosure\" href=\"http://x/a.tgz\"/></entry>")
        let document = try FeedParser.parse(bytes: Array(xml.utf8), documentURL: "http://x/f.atom")
        #expect(document.updated == nil && document.entries.count == 1 && document.entries[0].updated == nil)
        #expect(document.warnings.count == 2)
        #expect(document.warnings[1].contains("<updated> \"around noon\" is not a date; the field is ignored"))
    }

    @Test func publishedStandsInForAMissingUpdated() throws {
        let xml = FeedXML.atom(
            "<published>2006-01-17T11:35:09Z</published><entry><title>A</title>"
                + "<published>2006-01-17T12:35:9+01:00</published></entry>"
                + "<entry><title>B</title><published>2001-01-01T00:00:00Z</published>"
                + "<updated>2006-01-17T11:35:09Z</updated></entry>")
        let document = try FeedParser.parse(bytes: Array(xml.utf8), documentURL: nil)
        #expect(document.updated?.timeIntervalSince1970 == Self.reference)
        #expect(document.entries.map { $0.updated?.timeIntervalSince1970 } == [Self.reference, Self.reference])
    }

    @Test func irisBecomeURIsBeforeAnyRequest() throws {
        let xml = FeedXML.atom(
            "<entry xml:base=\"http://例え.jp/dökümanlar/\"><title>A</title>"
                + "<link rel=\"enclosure\" href=\"Ärger 1.tgz\"/></entry>"
                + "<entry><title>B</title><link rel=\"enclosure\" href=\"http://x.org/%C3%A9/é.tgz\"/></entry>")
        let document = try FeedParser.parse(bytes: Array(xml.utf8), documentURL: "http://x.org/feed.atom")
        let urls = document.entries.map { $0.archives.first?.url }
        #expect(
            urls == [
                "http://%E4%BE%8B%E3%81%88.jp/d%C3%B6k%C3%BCmanlar/%C3%84rger%201.tgz",
                "http://x.org/%C3%A9/%C3%A9.tgz",
            ])
        #expect(urls.allSatisfy { $0?.utf8.allSatisfy { $0 < 0x80 } == true })
    }
}
