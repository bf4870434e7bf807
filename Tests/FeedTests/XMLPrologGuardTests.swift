import Testing

@testable import DocSyncFeed

/// The byte-level DOCTYPE guard: one row per prolog rule; every row is also fed one byte at a time.
@Suite(.timeLimit(.minutes(5)))
struct XMLPrologGuardTests {
    @Test(
        arguments: [
            ("DOCTYPE first", "<!DOCTYPE feed><feed/>", XMLPrologGuard.Verdict.doctype(line: 1, column: 1)),
            (
                "DOCTYPE after the XML declaration", "<?xml version=\"1.0\"?>\n<!DOCTYPE x>",
                .doctype(line: 2, column: 1)
            ),
            ("DOCTYPE after a BOM", "\u{FEFF}<!DOCTYPE x>", .doctype(line: 1, column: 1)),
            ("DOCTYPE after comments and PIs", "<!-- a -- b --><?pi x?>\n  <!DOCTYPE x>", .doctype(line: 2, column: 3)),
            ("comment mentioning DOCTYPE", "<!-- <!DOCTYPE x> --><feed/>", .passed),
            ("root element ends the prolog", "<feed><![CDATA[<!DOCTYPE x>]]></feed>", .passed),
            ("text before the root is not ours", "hello <!DOCTYPE x>", .passed),
            ("CDATA in the prolog is not ours", "<![CDATA[x]]>", .passed),
            ("lowercase doctype is not a DOCTYPE", "<!doctype x><feed/>", .passed),
            ("UTF-16 little-endian with a BOM", "utf16le-bom", .doctype(line: 2, column: 1)),
            ("UTF-16 big-endian with a BOM", "utf16be-bom", .doctype(line: 2, column: 1)),
            ("UTF-16 little-endian without a BOM", "utf16le", .doctype(line: 2, column: 1)),
            ("UTF-16 root element passes", "utf16le-root", .passed),
            ("UTF-32 input stands aside", "utf32", .passed),
            ("unfinished prolog stays undecided", "<?xml version=\"1.0\"?>\n<!DOC", .undecided),
        ] as [(String, String, XMLPrologGuard.Verdict)])
    func judges(rule: String, text: String, expected: XMLPrologGuard.Verdict) {
        let bytes = Self.bytes(text)
        var whole = XMLPrologGuard()
        bytes.withUnsafeBytes { whole.consume($0) }
        #expect(whole.verdict == expected, "\(rule)")
        var byByte = XMLPrologGuard()
        for byte in bytes { [byte].withUnsafeBytes { byByte.consume($0) } }
        #expect(byByte.verdict == expected, "\(rule), byte by byte")
    }

    /// The UTF-16/32 rows name an encoding of a small prolog instead of giving the text.
    static func bytes(_ text: String) -> [UInt8] {
        let prolog = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<!DOCTYPE x>"
        let units = Array(prolog.utf16)
        let littleEndian = units.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        switch text {
        case "utf16le-bom": return [0xFF, 0xFE] + littleEndian
        case "utf16be-bom": return [0xFE, 0xFF] + units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        case "utf16le": return littleEndian
        case "utf16le-root": return Array("<feed/>".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        case "utf32": return [0x00, 0x00, 0x00, 0x3C]
        default: return Array(text.utf8)
        }
    }
}
