import DocSyncFeed
import Foundation
import Testing

/// Attribute and element caps: libxml2's time grows with the square of one element's attribute count, and every
/// parsed entry stays in memory, so both are bounded with errors that say which limit was hit.
@Suite struct FeedLimitTests {
    static func attributes(_ count: Int) -> String {
        (0..<count).map { "a\($0)=\"v\"" }.joined(separator: " ")
    }

    static func expectRefused(_ xml: String, limits: FeedLimits = .init(), _ reason: FeedError.Reason, line: Int? = nil)
    {
        do {
            _ = try FeedXML.parse(xml, url: "https://feeds.example/f.atom", limits: limits)
            Issue.record("parsed")
        } catch {
            #expect(error.reason == reason, "\(error)")
            if let line { #expect(error.line == line, "\(error)") }
            #expect(error.description.contains("limit of"), "\(error)")
        }
    }

    @Test func anElementAtTheAttributeLimitParses() throws {
        let xml = FeedXML.atom("<link href=\"a\" \(Self.attributes(FeedLimits.defaultMaxAttributes - 1))/>")
        #expect(try FeedXML.parse(xml).links.count == 1)
    }

    @Test func oneAttributeOverTheLimitIsRefused() {
        // href plus 256 more: one over the limit, on line 3.
        let xml = FeedXML.atom("\n\n<link href=\"a\" \(Self.attributes(FeedLimits.defaultMaxAttributes))/>")
        Self.expectRefused(xml, .tooManyAttributes(limit: FeedLimits.defaultMaxAttributes), line: 3)
    }

    /// The hostile shape of the report (it took 11–91 s in libxml2): refused while the bytes are read.
    @Test func aHundredThousandAttributesAreRefused() {
        let xml = FeedXML.atom(FeedXML.entry("<title>t</title>", attributes: Self.attributes(100_000)))
        Self.expectRefused(xml, .tooManyAttributes(limit: FeedLimits.defaultMaxAttributes))
    }

    /// `=` in text, attribute values, comments, CDATA and processing instructions is not an attribute.
    @Test func equalsSignsOutsideTagsDoNotCount() throws {
        let many = String(repeating: "x=y ", count: 1000)
        let xml =
            "<?xml version=\"1.0\"?><?pi \(many)?>"
            + FeedXML.atom(
                "<title>\(many)</title><!-- \(many) <a b=c> --><id><![CDATA[\(many) <b c=d> ]]></id>"
                    + "<link href=\"\(many)\" title='\(many)>'/>")
        let document = try FeedXML.parse(xml)
        #expect(document.links.count == 1 && document.title?.hasPrefix("x=y") == true)
    }

    @Test func entriesOverTheLimitAreRefused() throws {
        var limits = FeedLimits()
        limits.maxEntries = 5
        let entry = FeedXML.entry("<id>x</id>")
        #expect(try FeedXML.parse(FeedXML.atom(String(repeating: entry, count: 5)), limits: limits).entries.count == 5)
        Self.expectRefused(
            FeedXML.atom(String(repeating: entry, count: 6)), limits: limits, .tooManyElements(name: "entry", limit: 5))
    }

    @Test func linksOverTheLimitAreRefused() {
        var limits = FeedLimits()
        limits.maxEntries = 3
        let links = String(repeating: "<link href=\"x\"/>", count: 4)
        Self.expectRefused(FeedXML.atom(FeedXML.entry(links)), limits: limits, .tooManyElements(name: "link", limit: 3))
        Self.expectRefused(FeedXML.atom(links), limits: limits, .tooManyElements(name: "link", limit: 3))
    }

    @Test func dashMirrorsOverTheLimitAreRefused() {
        var limits = FeedLimits()
        limits.maxEntries = 3
        let urls = String(repeating: "<url>https://a.example/x.tgz</url>", count: 5)
        Self.expectRefused(
            "<entry><version>1</version>\(urls)</entry>", limits: limits, .tooManyElements(name: "url", limit: 3))
        let names = String(repeating: "<version><name>1</name></version>", count: 5)
        Self.expectRefused(
            "<entry><version>1</version><url>https://a.example/x</url>"
                + "<other-versions>\(names)</other-versions></entry>",
            limits: limits, .tooManyElements(name: "name", limit: 3))
    }
}
