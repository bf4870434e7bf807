import DocSyncIndex
import DocSyncSupport
import Foundation
import TestSupport
import Testing

@testable import DocSyncCLI

/// `docsync entries --json` writes its JSON Lines as bytes (`JSONText.appendString(_:to:)` into `[UInt8]`): the
/// same text as the `String` escaper, and valid JSON that reads back as the original strings.
@Suite(.timeLimit(.minutes(10))) struct EntriesJSONTests {
    static let pieces = [
        "a", "Z", " ", "é", "日本", "\u{301}", "\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{1F}", "\u{7F}", "/", "%",
        "#", "<", ">", "\u{2028}", "😀", "\r\n",
    ]

    @Test func bytesEqualTheStringEscaper() throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        for _ in 0..<20_000 {
            var text = ""
            for _ in 0..<Int.random(in: 0...12, using: &random) { text += Self.pieces.randomElement(using: &random)! }
            var string = ""
            JSONText.appendString(text, to: &string)
            var bytes: [UInt8] = []
            JSONText.appendString(text, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == string, "seed \(random.seed): \(String(reflecting: text))")
            let decoded = try JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed) as? String
            #expect(decoded == text, "seed \(random.seed): \(String(reflecting: text))")
        }
    }

    @Test func oneRecordPerEntry() throws {
        let entry = DocsetEntry(
            name: "a\"b", type: "Method", rawType: "clm", page: "c/d e.html", fragment: nil,
            url: URL(string: "file:///x/Contents/Resources/Documents/c/d%20e.html")!)
        #expect(
            EntriesCommand.json(entry)
                == #"{"fragment":null,"name":"a\"b","page":"c/d e.html","raw_type":"clm","type":"Method","url":"#
                + #""file:///x/Contents/Resources/Documents/c/d%20e.html"}"# + "\n")
    }

    /// `docsync serve` puts JSON inside HTML: the HTML-safe form escapes `<`, `>`, U+2028 and U+2029 as well, and
    /// still reads back as the original string.
    @Test func htmlSafeStringsCannotCloseATag() throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        for _ in 0..<5_000 {
            var text = ""
            for _ in 0..<Int.random(in: 0...12, using: &random) { text += Self.pieces.randomElement(using: &random)! }
            var safe = ""
            JSONText.appendString(text, to: &safe, htmlSafe: true)
            #expect(!safe.contains("<") && !safe.contains(">") && !safe.contains("\u{2028}"), "seed \(random.seed)")
            let decoded = try JSONSerialization.jsonObject(with: Data(safe.utf8), options: .fragmentsAllowed) as? String
            #expect(decoded == text, "seed \(random.seed): \(String(reflecting: text))")
        }
        var script = ""
        JSONText.appendString("</script>\u{2029}", to: &script, htmlSafe: true)
        #expect(script == #""\u003c/script\u003e\u2029""#)
    }
}
