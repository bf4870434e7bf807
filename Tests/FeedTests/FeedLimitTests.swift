import DocSyncFeed
import Foundation
import TestSupport
import Testing

/// Attribute and element caps: libxml2's time grows with the square of one element's attribute count, and every
/// parsed entry stays in memory, so both are bounded with errors that say which limit was hit.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct FeedLimitTests {
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
        // href plus the limit: one over it, on line 3.
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
                    + "<link href=\"x\" type=\"\(many)\" title='\(many)>'/>")
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

    @Test func aTitleOverTheTextLimitIsRefused() throws {
        var limits = FeedLimits()
        limits.maxTextBytes = 1000
        let fits = String(repeating: "word ", count: 199)
        #expect(try FeedXML.parse(FeedXML.atom("<title>\(fits)</title>"), limits: limits).title?.count == 994)
        let tooLong = String(repeating: "word ", count: 201)
        Self.expectRefused(FeedXML.atom("<title>\(tooLong)</title>"), limits: limits, .textTooLong(limit: 1000))
    }

    /// A long `xml:base` would be copied into every resolved link: the resolved URL is capped.
    @Test func anXMLBaseCannotMultiplyMemory() {
        let base = "https://a.example/" + String(repeating: "d/", count: 2000)
        let links = String(repeating: "<link href=\"x\"/>", count: 3)
        Self.expectRefused(
            FeedXML.atom(links, attributes: "xml:base=\"\(base)\""), .urlTooLong(limit: FeedLimits.defaultMaxURLBytes))
    }

    /// The feed's own links and its entries' links share one cap.
    @Test func linksAreCountedAcrossTheFeed() {
        var limits = FeedLimits()
        limits.maxEntries = 4
        let entry = FeedXML.entry("<link href=\"x\"/><link href=\"y\"/>")
        Self.expectRefused(
            FeedXML.atom("<link href=\"z\"/>" + entry + entry), limits: limits, .tooManyElements(name: "link", limit: 4)
        )
    }

    @Test(arguments: [
        ("  a \t b\r\n c  ", "a b c"), ("\u{A0}x\u{2003}y\u{3000}", "x y"), ("", ""), ("   ", ""),
        ("e\u{301} f", "e\u{301} f"), ("a\u{85}b\u{2028}c", "a b c"), ("日本 語", "日本 語"),
    ])
    func whitespaceCollapsesLikeBefore(text: String, expected: String) throws {
        let xml = FeedXML.atom("<id>\(text)</id>")
        #expect(try FeedXML.parse(xml).id == (expected.isEmpty ? nil : expected))
    }

    /// `feed parse --check`: the caps through the real executable, with nothing printed.
    @Test func theCommandLineCheckReportsACap() throws {
        let directory = try TemporaryDirectory("feedlimit")
        defer { directory.remove() }
        let bad = directory.appending("bad.atom")
        let good = directory.appending("good.atom")
        try FeedXML.atom(FeedXML.entry("<id>x</id>", attributes: Self.attributes(1000))).write(
            toFile: bad, atomically: true, encoding: .utf8)
        try FeedXML.atom(FeedXML.entry("<id>x</id>")).write(toFile: good, atomically: true, encoding: .utf8)
        let refused = try Tool.run(Tool.docsyncBinary, ["feed", "parse", bad, "--check"])
        #expect(refused.status == 65 && refused.standardOutput.isEmpty)
        #expect(refused.standardError.contains("more than the limit of 64 attributes"), "\(refused.standardError)")
        let accepted = try Tool.run(Tool.docsyncBinary, ["feed", "parse", good, "--check"])
        #expect(accepted.status == 0 && accepted.standardOutput.isEmpty, "\(accepted.standardError)")
    }
}
