/// Counts the attributes of each start tag in the raw bytes before libxml2 sees them: libxml2 spends time
/// quadratic in the attribute count of one element (100k attributes took 11–91 s), so the cap must act first.
///
/// A small lexer over text, tags, quoted values, comments, CDATA sections and processing instructions: an
/// attribute is an `=` inside a start tag outside quotes. A malformed document may be counted loosely; libxml2
/// refuses it anyway.
struct XMLAttributeCounter {
    private enum State {
        case text, tagOpen, tag
        case quoted(UInt8)
        case markup, markupDash
        case comment(dashes: Int)
        case cdata(brackets: Int)
        case declaration
        case instruction(question: Bool)
        case endTag
    }

    let limit: Int
    private var state = State.text
    private var attributes = 0
    /// 1-based line of the byte being read.
    private(set) var line = 1
    /// The line of the start tag that went over the limit.
    private(set) var exceededAt: Int?

    init(limit: Int) { self.limit = limit }

    /// Reads `bytes`; false once some start tag has more than `limit` attributes.
    mutating func consume(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard exceededAt == nil else { return false }
        for byte in bytes {
            if byte == 0x0A { line += 1 }
            switch state {
            case .text:
                if byte == UInt8(ascii: "<") { state = .tagOpen }
            case .tagOpen:
                switch byte {
                case UInt8(ascii: "!"): state = .markup
                case UInt8(ascii: "?"): state = .instruction(question: false)
                case UInt8(ascii: "/"): state = .endTag
                default:
                    attributes = 0
                    state = .tag
                }
            case .tag:
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "'"): state = .quoted(byte)
                case UInt8(ascii: ">"): state = .text
                case UInt8(ascii: "="):
                    attributes += 1
                    if attributes > limit {
                        exceededAt = line
                        return false
                    }
                default: break
                }
            case .quoted(let quote):
                if byte == quote { state = .tag }
            case .endTag:
                if byte == UInt8(ascii: ">") { state = .text }
            case .markup:
                switch byte {
                case UInt8(ascii: "-"): state = .markupDash
                case UInt8(ascii: "["): state = .cdata(brackets: 0)
                case UInt8(ascii: ">"): state = .text
                default: state = .declaration
                }
            case .markupDash:
                state = byte == UInt8(ascii: "-") ? .comment(dashes: 0) : .declaration
            case .comment(let dashes):
                if byte == UInt8(ascii: ">"), dashes >= 2 {
                    state = .text
                } else {
                    state = .comment(dashes: byte == UInt8(ascii: "-") ? dashes + 1 : 0)
                }
            case .cdata(let brackets):
                if byte == UInt8(ascii: ">"), brackets >= 2 {
                    state = .text
                } else {
                    state = .cdata(brackets: byte == UInt8(ascii: "]") ? brackets + 1 : 0)
                }
            case .declaration:
                if byte == UInt8(ascii: ">") { state = .text }
            case .instruction(let question):
                if byte == UInt8(ascii: ">"), question {
                    state = .text
                } else {
                    state = .instruction(question: byte == UInt8(ascii: "?"))
                }
            }
        }
        return true
    }
}
