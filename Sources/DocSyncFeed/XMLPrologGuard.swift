/// Watches the bytes of a document's prolog (before the root element) and spots a `<!DOCTYPE` before libxml2
/// sees it, so that no entity or external subset declaration is ever parsed. Pure: feed it bytes, ask the verdict.
///
/// It reads UTF-8 (and ASCII-compatible encodings) and UTF-16 in either byte order, with or without a BOM: the
/// prolog constructs it follows (`<?…?>`, `<!--…-->`, whitespace) are ASCII in all of them. For anything else
/// (UTF-32, EBCDIC) it stands aside; the reader still refuses a DOCTYPE node.
struct XMLPrologGuard: Sendable, Equatable {
    enum Verdict: Sendable, Equatable {
        /// Still in the prolog: keep feeding.
        case undecided
        /// The root element (or something that is not a prolog) began: nothing more to check.
        case passed
        /// A DOCTYPE starts at this 1-based line and column (columns count characters, as libxml2's do).
        case doctype(line: Int, column: Int)
    }

    private enum Encoding: Sendable, Equatable { case utf8, utf16LittleEndian, utf16BigEndian }

    private enum State: Sendable, Equatable {
        case between, lessThan
        case bang(matched: Int)
        case comment(dashes: Int)
        case instruction(question: Bool)
    }

    private(set) var verdict = Verdict.undecided
    private var encoding: Encoding?
    /// Bytes seen while the encoding is unknown, or the first byte of a UTF-16 code unit.
    private var pending: [UInt8] = []
    private var state = State.between
    private var line = 1
    private var column = 0
    private var markLine = 1
    private var markColumn = 1

    private static let doctype = Array("DOCTYPE".utf8)

    /// Consumes `bytes` until a verdict is reached; the rest is not looked at.
    mutating func consume(_ bytes: UnsafeRawBufferPointer) {
        var index = 0
        while verdict == .undecided, index < bytes.count {
            take(bytes[index])
            index += 1
        }
    }

    private mutating func take(_ byte: UInt8) {
        switch encoding {
        case .utf8: character(byte)
        case .utf16LittleEndian, .utf16BigEndian:
            guard let first = pending.popLast() else {
                pending = [byte]
                return
            }
            let unit =
                encoding == .utf16LittleEndian ? UInt16(byte) << 8 | UInt16(first) : UInt16(first) << 8 | UInt16(byte)
            if unit < 0x80 {
                character(UInt8(unit))
            } else if !(0xDC00...0xDFFF).contains(unit) {
                character(0xFF)  // some non-ASCII character (a low surrogate adds no column)
            }
        case nil: detect(byte)
        }
    }

    /// Decides the encoding from the first bytes (XML 1.0 Appendix F), skipping a byte order mark.
    private mutating func detect(_ byte: UInt8) {
        pending.append(byte)
        switch pending {
        case [0xEF], [0xEF, 0xBB], [0xFF], [0xFE], [0x3C], [0x00]: return
        case [0xEF, 0xBB, 0xBF]: start(.utf8, replaying: [])
        case [0xFF, 0xFE]: start(.utf16LittleEndian, replaying: [])
        case [0xFE, 0xFF]: start(.utf16BigEndian, replaying: [])
        case [0x3C, 0x00]: start(.utf16LittleEndian, replaying: pending)
        case [0x00, 0x3C]: start(.utf16BigEndian, replaying: pending)
        default:
            if pending.first == 0x00 { verdict = .passed } else { start(.utf8, replaying: pending) }
        }
    }

    private mutating func start(_ encoding: Encoding, replaying bytes: [UInt8]) {
        self.encoding = encoding
        pending = []
        for byte in bytes where verdict == .undecided { take(byte) }
    }

    private mutating func character(_ byte: UInt8) {
        if byte == UInt8(ascii: "\n") {
            line += 1
            column = 0
        } else if byte & 0xC0 != 0x80 {
            column += 1  // UTF-8 continuation bytes add no column
        }
        switch state {
        case .between: between(byte)
        case .lessThan:
            switch byte {
            case UInt8(ascii: "?"): state = .instruction(question: false)
            case UInt8(ascii: "!"): state = .bang(matched: 0)
            default: verdict = .passed
            }
        case .bang(let matched):
            if matched == 0, byte == UInt8(ascii: "-") {
                state = .comment(dashes: -1)  // `<!-` seen: one more `-` opens the comment
            } else if byte == Self.doctype[matched] {
                if matched + 1 == Self.doctype.count {
                    verdict = .doctype(line: markLine, column: markColumn)
                } else {
                    state = .bang(matched: matched + 1)
                }
            } else {
                verdict = .passed  // not a prolog construct: libxml2 reports it
            }
        case .comment(let dashes):
            if dashes == -1 {
                if byte == UInt8(ascii: "-") { state = .comment(dashes: 0) } else { verdict = .passed }
            } else if byte == UInt8(ascii: "-") {
                state = .comment(dashes: min(dashes + 1, 2))
            } else if byte == UInt8(ascii: ">"), dashes == 2 {
                state = .between
            } else {
                state = .comment(dashes: 0)
            }
        case .instruction(let question):
            if byte == UInt8(ascii: ">"), question {
                state = .between
            } else {
                state = .instruction(question: byte == UInt8(ascii: "?"))
            }
        }
    }

    private mutating func between(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"): break
        case UInt8(ascii: "<"):
            markLine = line
            markColumn = column
            state = .lessThan
        default: verdict = .passed
        }
    }
}
