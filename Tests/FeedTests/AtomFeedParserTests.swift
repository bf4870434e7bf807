import DocSyncFeed
import Foundation
import Testing

/// Atom 1.0 + Apple's docset extension, through the real libxml2 reader: one row per rule.
@Suite(.timeLimit(.minutes(5)))
struct AtomFeedParserTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let rule: String
        let xml: String
        var url: String? = nil
        let entries: [FeedEntry]
        var testDescription: String { rule }
    }

    static let enclosure = "<link rel=\"enclosure\" href=\"d.xar\"/>"

    static func archive(_ url: String) -> (links: [FeedLink], archives: [FeedArchive]) {
        ([FeedLink(href: url, rel: "enclosure")], [FeedArchive(url: url)])
    }

    /// The entry a feed with one enclosure at `url` parses to.
    static func enclosed(_ url: String) -> FeedEntry {
        FeedEntry(links: archive(url).links, archives: archive(url).archives)
    }

    static let rows: [Row] = [
        Row(
            rule: "nested relative xml:base (feed, entry, link) resolves step by step",
            xml: FeedXML.atom(
                FeedXML.entry(
                    "<link xml:base=\"c/\" rel=\"enclosure\" href=\"d.xar\"/>", attributes: "xml:base=\"b/\""),
                attributes: "xml:base=\"http://h.example/a/\""),
            entries: [
                enclosed("http://h.example/a/b/c/d.xar")
            ]),
        Row(
            rule: "relative xml:base resolves against the document URL",
            xml: FeedXML.atom(FeedXML.entry(enclosure, attributes: "xml:base=\"../docsets/\"")),
            url: "https://h.example/feeds/x.atom",
            entries: [
                enclosed("https://h.example/docsets/d.xar")
            ]),
        Row(
            rule: "relative href resolves against the document URL",
            xml: FeedXML.atom(FeedXML.entry("<link rel=\"enclosure\" href=\"../d/x.xar?v=1\"/>")),
            url: "https://h.example/feeds/all/x.atom",
            entries: [
                enclosed("https://h.example/feeds/d/x.xar?v=1")
            ]),
        Row(
            rule: "absolute xml:base replaces the document URL",
            xml: FeedXML.atom(FeedXML.entry(enclosure, attributes: "xml:base=\"https://cdn.example/x/\"")),
            url: "https://h.example/feeds/x.atom",
            entries: [
                enclosed("https://cdn.example/x/d.xar")
            ]),
        Row(
            rule: "absolute href ignores every base",
            xml: FeedXML.atom(
                FeedXML.entry("<link rel=\"enclosure\" href=\"http://o.example/d.xar\"/>"),
                attributes: "xml:base=\"https://cdn.example/x/\""),
            url: "https://h.example/feeds/x.atom",
            entries: [
                enclosed("http://o.example/d.xar")
            ]),
        Row(
            rule: "relative href without any base stays relative",
            xml: FeedXML.atom(FeedXML.entry(enclosure)),
            entries: [enclosed("d.xar")]),
        Row(
            rule: "href with a space is percent-encoded before resolving",
            xml: FeedXML.atom(FeedXML.entry("<link rel=\"enclosure\" href=\"My Docs.xar\"/>")),
            url: "https://h.example/feeds/",
            entries: [
                enclosed("https://h.example/feeds/My%20Docs.xar")
            ]),
        Row(
            rule: "Atom under an unusual prefix, docset extension under another",
            xml: """
                <at:feed xmlns:at="http://www.w3.org/2005/Atom" xmlns:zz="\(FeedXML.docsetNamespace)">\
                <at:entry><at:id>i</at:id><zz:identifier>com.x</zz:identifier><zz:version>1</zz:version>\
                </at:entry></at:feed>
                """,
            entries: [FeedEntry(id: "i", identifier: "com.x", version: "1")]),
        Row(
            rule: "docset extension as a default namespace",
            xml: FeedXML.atom(
                FeedXML.entry(
                    "<identifier xmlns=\"\(FeedXML.docsetNamespace)\">com.x</identifier>")),
            entries: [FeedEntry(identifier: "com.x")]),
        Row(
            rule: "the docset prefix bound to another namespace is foreign",
            xml: """
                <feed xmlns="http://www.w3.org/2005/Atom" xmlns:docset="urn:not-docset">\
                <entry><id>i</id><docset:identifier>com.x</docset:identifier></entry></feed>
                """,
            entries: [FeedEntry(id: "i")]),
        Row(
            rule: "CDATA and character entities in text",
            xml: FeedXML.atom(
                FeedXML.entry(
                    "<id><![CDATA[tag:a&b]]></id><title>Caf&#233; &#x2014; &amp; &lt;x&gt;</title>")),
            entries: [FeedEntry(id: "tag:a&b", title: "Café — & <x>")]),
        Row(
            rule: "xhtml title reduced to its text",
            xml: FeedXML.atom(
                FeedXML.entry(
                    """
                    <title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">The <b>Bold</b>
                      <i>Docs</i></div></title>
                    """)),
            entries: [FeedEntry(title: "The Bold Docs")]),
        Row(
            rule: "html title reduced to its text",
            xml: FeedXML.atom(FeedXML.entry("<title type=\"html\">A &lt;em&gt;B&lt;/em&gt; &amp;amp; C</title>")),
            entries: [FeedEntry(title: "A B & C")]),
        Row(
            rule: "date with a negative offset normalised to UTC",
            xml: FeedXML.atom(FeedXML.entry("<updated>2017-04-06T14:56:28-04:00</updated>")),
            entries: [FeedEntry(updated: FeedXML.date(1_491_504_988))]),
        Row(
            rule: "date with a +10:30 offset normalised to UTC",
            xml: FeedXML.atom(FeedXML.entry("<updated>2016-06-16T09:05:00+10:30</updated>")),
            entries: [FeedEntry(updated: FeedXML.date(1_466_030_100))]),
        Row(
            rule: "missing optional fields stay nil",
            xml: FeedXML.atom(FeedXML.entry("<id>only-an-id</id>")),
            entries: [FeedEntry(id: "only-an-id")]),
        Row(
            rule: "an empty entry is still an entry",
            xml: FeedXML.atom("<entry/>"),
            entries: [FeedEntry()]),
        Row(
            rule: "opaque ids with unpadded dates compare as written",
            xml: FeedXML.atom(FeedXML.entry("<id>\n tag:www.cups.org,2017-04-6:org.cups.docset/2.2.0 \n</id>")),
            entries: [FeedEntry(id: "tag:www.cups.org,2017-04-6:org.cups.docset/2.2.0")]),
        Row(
            rule: "several entries per identifier are all kept, in order",
            xml: FeedXML.atom(
                FeedXML.entry("<docset:identifier>com.x</docset:identifier><docset:version>2</docset:version>")
                    + FeedXML.entry("<docset:identifier>com.x</docset:identifier><docset:version>1</docset:version>")),
            entries: [FeedEntry(identifier: "com.x", version: "2"), FeedEntry(identifier: "com.x", version: "1")]),
        Row(
            rule: "foreign elements are ignored, even when they nest Atom names",
            xml: FeedXML.atom(
                """
                <x:meta xmlns:x="urn:x"><entry><id>not-an-entry</id></entry></x:meta>\
                <entry><x:extra xmlns:x="urn:x"><link rel="enclosure" href="no.xar"/><id>no</id></x:extra>\
                <id>yes</id></entry>
                """),
            entries: [FeedEntry(id: "yes")]),
        Row(
            rule: "link rel defaults to alternate; only enclosures are archives",
            xml: FeedXML.atom(
                FeedXML.entry("<link href=\"http://h/a\"/><link rel=\"enclosure\" href=\"http://h/d\"/>")),
            entries: [
                FeedEntry(
                    links: [FeedLink(href: "http://h/a"), FeedLink(href: "http://h/d", rel: "enclosure")],
                    archives: [FeedArchive(url: "http://h/d")])
            ]),
        Row(
            rule: "the IANA relation IRI of enclosure is enclosure",
            xml: FeedXML.atom(
                FeedXML.entry(
                    "<link rel=\"http://www.iana.org/assignments/relation/enclosure\" href=\"http://h/d\"/>")),
            entries: [enclosed("http://h/d")]),
        Row(
            rule: "link type, length, title and hreflang are kept; a bad length is dropped",
            xml: FeedXML.atom(
                FeedXML.entry(
                    """
                    <link rel="enclosure" type="application/x-xar" length="1231089" title="T" hreflang="en" href="http://h/d"/>\
                    <link rel="enclosure" length="-5" href="http://h/e"/><link rel="enclosure" length="big" href="http://h/f"/>
                    """)),
            entries: [
                FeedEntry(
                    links: [
                        FeedLink(
                            href: "http://h/d", rel: "enclosure", type: "application/x-xar", length: 1_231_089,
                            title: "T", hreflang: "en"),
                        FeedLink(href: "http://h/e", rel: "enclosure"), FeedLink(href: "http://h/f", rel: "enclosure"),
                    ],
                    archives: [
                        FeedArchive(url: "http://h/d", type: "application/x-xar", length: 1_231_089),
                        FeedArchive(url: "http://h/e"), FeedArchive(url: "http://h/f"),
                    ])
            ]),
        Row(
            rule: "a link without href is ignored",
            xml: FeedXML.atom(FeedXML.entry("<link rel=\"enclosure\"/>")),
            entries: [FeedEntry()]),
        Row(
            rule: "docset Xcode versions, signer and issuer",
            xml: FeedXML.atom(
                FeedXML.entry(
                    """
                    <docset:minimumXcodeVersion>3.0</docset:minimumXcodeVersion>\
                    <docset:maximumXcodeVersion>4.6</docset:maximumXcodeVersion>\
                    <docset:signer>Signer</docset:signer><docset:issuer>Issuer CA</docset:issuer>
                    """)),
            entries: [
                FeedEntry(
                    minimumXcodeVersion: "3.0", maximumXcodeVersion: "4.6", signer: "Signer",
                    issuer: "Issuer CA")
            ]),
        Row(
            rule: "docset:sha256 is validated and lowercased",
            xml: FeedXML.atom(FeedXML.entry("<docset:sha256> \(FeedChecksumSample.upper) </docset:sha256>")),
            entries: [FeedEntry(sha256: FeedChecksumSample.lower)]),
        Row(
            rule: "comments and processing instructions inside elements are skipped",
            xml: FeedXML.atom(FeedXML.entry("<id>a<!-- c -->b<?pi x?>c</id>")),
            entries: [FeedEntry(id: "abc")]),
    ]

    @Test(arguments: rows)
    func parsesEntries(_ row: Row) throws {
        let document = try FeedXML.parse(row.xml, url: row.url)
        #expect(document.format == .atom)
        #expect(document.entries == row.entries)
    }

    @Test func parsesFeedLevelFields() throws {
        let document = try FeedXML.parse(
            FeedXML.atom(
                """
                <id>tag:x,2017:feed</id><title type="html">A &amp;amp; B</title>\
                <updated>2017-04-06T14:56:28-04:00</updated><link rel="self" href="feed.atom"/>\
                <docset:publisherName>Apple</docset:publisherName><entry><id>e</id></entry>
                """),
            url: "https://h.example/feeds/index.atom")
        #expect(
            document
                == FeedDocument(
                    format: .atom, id: "tag:x,2017:feed", title: "A & B", updated: FeedXML.date(1_491_504_988),
                    links: [FeedLink(href: "https://h.example/feeds/feed.atom", rel: "self")],
                    entries: [FeedEntry(id: "e")]))
    }

    /// RFC 3986 §5.4 reference resolution examples, through `xml:base` and the real reader (`xmlBuildURI` plus
    /// the dot-segment step). One row per example.
    @Test(arguments: [
        ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"), ("/g", "http://a/g"),
        ("//g", "http://g"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"),
        ("#s", "http://a/b/c/d;p?q#s"), ("g#s", "http://a/b/c/g#s"), (";x", "http://a/b/c/;x"),
        ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"), ("..", "http://a/b/"), ("../g", "http://a/b/g"),
        ("../..", "http://a/"), ("../../g", "http://a/g"), ("../../../g", "http://a/g"),
        ("/./g", "http://a/g"), ("/../g", "http://a/g"), ("g.", "http://a/b/c/g."), ("..g", "http://a/b/c/..g"),
        ("./../g", "http://a/b/g"), ("g/../h", "http://a/b/c/h"), ("g;x=1/../y", "http://a/b/c/y"),
        ("g?y/../x", "http://a/b/c/g?y/../x"), ("g#s/../x", "http://a/b/c/g#s/../x"), ("g:h", "g:h"),
    ])
    func resolvesLikeRFC3986(reference: String, expected: String) throws {
        let xml = FeedXML.atom(FeedXML.entry("<link rel=\"enclosure\" href=\"\(reference)\"/>"))
        let document = try FeedXML.parse(xml, url: "http://a/b/c/d;p?q")
        #expect(document.entries.first?.archives.first?.url == expected)
    }
}

enum FeedChecksumSample {
    static let lower = "5f70bf18a086007016e948b04aed3b82103a36bea41755b6cddfaf10ace3c6ef"
    static let upper = lower.uppercased()
}
