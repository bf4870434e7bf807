import Testing

@testable import DocSyncFeed

/// The byte-level DOCTYPE guard: one row per prolog rule; every row is also fed one byte at a time.
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
            ("UTF-16 input stands aside", "\u{FFFE}", .passed),
            ("unfinished prolog stays undecided", "<?xml version=\"1.0\"?>\n<!DOC", .undecided),
        ] as [(String, String, XMLPrologGuard.Verdict)])
    func judges(rule: String, text: String, expected: XMLPrologGuard.Verdict) {
        let bytes = rule == "UTF-16 input stands aside" ? [0xFF, 0xFE, 0x3C, 0x00] : Array(text.utf8)
        var whole = XMLPrologGuard()
        bytes.withUnsafeBytes { whole.consume($0) }
        #expect(whole.verdict == expected, "\(rule)")
        var byByte = XMLPrologGuard()
        for byte in bytes { [byte].withUnsafeBytes { byByte.consume($0) } }
        #expect(byByte.verdict == expected, "\(rule), byte by byte")
    }
}
