@testable import DocSyncFeed
import Foundation
import Testing

/// A page's visible text as libxml2's HTML parser reads it: what is left out, what is decoded, where words break,
/// and bounded memory and time on hostile pages.
@Suite(.timeLimit(.minutes(5))) struct VisibleTextTests {
    static func read(_ html: String, limits: VisibleTextLimits = VisibleTextLimits()) throws -> VisibleText {
        try VisibleTextReader.read(Array(html.utf8), limits: limits)
    }

    @Test(arguments: [
        // (page, title, body)
        ("<html><head><title>T</title></head><body><p>Hello</p></body></html>", "T", "Hello"),
        ("<p>a</p><p>b</p>", "", "a\nb"),
        ("a<b>b</b>c <i>d</i>", "", "abc d"),
        ("<body>x<script>var hidden = 1;</script>y</body>", "", "xy"),
        ("<style>.c { color: red }</style><div>shown</div>", "", "shown"),
        ("<template><p>later</p></template><p>now</p>", "", "now"),
        ("<p>caf&eacute; &amp; &lt;tag&gt; &#x41;&#66;</p>", "", "café & <tag> AB"),
        ("<p>  many \n\t spaces  </p>", "", "many spaces"),
        ("<title>  Two   words </title>body", "Two words", "body"),
        ("<!-- a comment --><p>text</p>", "", "text"),
        ("<ul><li>one</li><li>two</li></ul>", "", "one\ntwo"),
        ("<td>cell</td><td>next</td>", "", "cell\nnext"),
        ("unclosed <p>tags <div>everywhere", "", "unclosed\ntags\neverywhere"),
    ])
    func visibleText(page: String, title: String, body: String) throws {
        let text = try Self.read(page)
        #expect(text.title == title)
        #expect(text.body == body)
        #expect(!text.truncated)
    }

    /// Every inline element (any case) joins the text around it; other names, of 8 bytes or more, break it.
    @Test func inlineElementsJoinAndOthersBreak() throws {
        let inline = [
            "a", "abbr", "b", "bdi", "bdo", "big", "cite", "code", "data", "del", "dfn", "em", "font", "i", "ins",
            "kbd", "mark", "q", "s", "samp", "small", "span", "strike", "strong", "sub", "sup", "time", "tt", "u",
            "var",
        ]
        for name in inline + inline.map({ $0.uppercased() }) {
            #expect(try Self.read("<p>x<\(name)>y</\(name)>z</p>").body == "xyz", "\(name)")
        }
        for name in ["div", "fieldset", "noscript", "blockquote", "section", "article", "customelement"] {
            #expect(try Self.read("<p>x<\(name)>y</\(name)>z</p>").body.contains("\n"), "\(name)")
        }
    }

    @Test func invalidUTF8BecomesReplacementCharacters() throws {
        let bytes: [UInt8] = Array("<p>ok ".utf8) + [0xFF, 0xC3, 0x28, 0xE2, 0x82] + Array(" fine</p>".utf8)
        let text = try VisibleTextReader.read(bytes)
        #expect(text.body.hasPrefix("ok"))
        #expect(text.body.hasSuffix("fine"))
        #expect(String(decoding: Array(text.body.utf8), as: UTF8.self) == text.body)
    }

    @Test func deepNestingIsReadInBoundedTime() throws {
        let depth = 100_000
        let page = String(repeating: "<div>", count: depth) + "deep" + String(repeating: "</div>", count: depth)
        let started = ContinuousClock.now
        let text = try Self.read(page)
        #expect(text.body.contains("deep") || text.body.isEmpty)  // libxml2 may stop at its depth limit
        #expect(ContinuousClock.now - started < .seconds(20))
    }

    @Test func longTextIsCutAtTheLimitAndParsingStops() throws {
        var limits = VisibleTextLimits()
        limits.maximumTextBytes = 1 << 20
        let page = "<p>" + String(repeating: "word ", count: 2 << 20) + "</p>"  // 10 MiB of text
        let text = try Self.read(page, limits: limits)
        #expect(text.truncated)
        #expect(text.body.utf8.count <= 1 << 20)
        #expect(text.body.hasPrefix("word word"))
    }

    @Test func aPageOverTheLimitIsRefusedUnread() {
        var limits = VisibleTextLimits()
        limits.maximumPageBytes = 1000
        #expect(throws: VisibleTextError.tooLarge(0, limit: 0)) {
            try VisibleTextReader.read(Array(repeating: UInt8(ascii: "a"), count: 1001), limits: limits)
        }
    }

    @Test func entityDeclarationsAreNotExpanded() throws {
        let page = """
            <!DOCTYPE html [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
            <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]>
            <html><body><p>&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;</p></body></html>
            """
        let text = try Self.read(page)
        #expect(text.body.utf8.count < 1000)
        #expect(!text.body.contains("aaaaaaaaaa"))
    }

    @Test func aCutNeverSplitsACharacter() throws {
        var limits = VisibleTextLimits()
        limits.maximumTextBytes = 10
        let text = try Self.read("<p>ééééééééééé</p>", limits: limits)
        #expect(text.truncated)
        #expect(text.body.allSatisfy { $0 == "é" }, "\(Array(text.body.utf8))")
    }
}
