/// Watches the bytes of a document's prolog (before the root element) and spots a `<!DOCTYPE` before libxml2
/// sees it, so that no entity or external subset declaration is ever parsed. Pure: feed it bytes, ask the verdict.
///
/// It understands an ASCII-compatible prolog (UTF-8 BOM, whitespace, `<?…?>`, `<!--…-->`). For input that is
/// not ASCII-compatible (UTF-16/32) it stands aside; the reader still rejects the DOCTYPE node itself.
struct XMLPrologGuard: Sendable, Equatable {
    enum Verdict: Sendable, Equatable {
        /// Still in the prolog: keep feeding.
        case undecided
        /// The root element (or something that is not a prolog) began: nothing more to check.
        case passed
        /// A DOCTYPE starts at this 1-based line and column (columns count UTF-8 characters).
        case doctype(line: Int, column: Int)
    }

    private enum State: Sendable, Equatable {
        case start(bomBytes: Int)
        case between, lessThan
        case bang(matched: Int)
        case comment(dashes: Int)
        case instruction(
            question: Bool)
    }

    private(set) var verdict = Verdict.undecided
    private var state = State.start(bomBytes: 0)
    private var line = 1
    private var column = 0
    private var markLine = 1
    private var markColumn = 1

    private static let doctype = Array("DOCTYPE".utf8)

    /// Consumes `bytes` until a verdict is reached; the rest is not looked at.
    mutating func consume(_ bytes: UnsafeRawBufferPointer) {
        var index = 0
        while verdict == .undecided, index < bytes.count {
            step(bytes[index])
            index += 1
        }
    }

    private mutating func step(_ byte: UInt8) {
        if case .start(let bomBytes) = state, bomBytes < 3, byte == [0xEF, 0xBB, 0xBF][bomBytes] {
            state = bomBytes == 2 ? .between : .start(bomBytes: bomBytes + 1)
            return  // a BOM takes no column
        }
        if byte == UInt8(ascii: "\n") {
            line += 1
            column = 0
        } else if byte & 0xC0 != 0x80 {
            column += 1  // columns count characters, as libxml2's do
        }
        switch state {
        case .start(let bomBytes):
            if bomBytes == 0, byte == 0x00 || byte == 0xFE || byte == 0xFF {
                verdict = .passed  // UTF-16/32: not ours to read
            } else {
                state = .between
                between(byte)
            }
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
