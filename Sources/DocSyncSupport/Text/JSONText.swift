/// JSON string literals, written by hand for speed (entries of a large docset are millions of lines). The one
/// string escaper of the code base: TOML basic strings (`ConfigEditor`) use the same escapes, plus DEL.
package enum JSONText {
    /// Appends `text` as a JSON string literal: `"`, `\\` and control characters escaped (`\u00XX`); with
    /// `htmlSafe`, also `<`, `>`, U+2028 and U+2029, so the JSON can sit inside an HTML `<script>`; with
    /// `escapingDelete`, also U+007F (a TOML basic string: TOML has JSON's escapes and forbids a raw DEL).
    package static func appendString(
        _ text: String, to out: inout String, htmlSafe: Bool = false, escapingDelete: Bool = false
    ) {
        out += "\""
        var plain = true
        for byte in text.utf8
        where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
            || (escapingDelete && byte == 0x7F)
            || (htmlSafe && (byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte == 0xE2)) {
            plain = false
            break
        }
        if plain {
            out += text
        } else {
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case "<" where htmlSafe, ">" where htmlSafe, "\u{2028}" where htmlSafe, "\u{2029}" where htmlSafe,
                    "\u{7F}" where escapingDelete, _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }

    /// The `String` version's escapes, appended as bytes (no intermediate `String`).
    package static func appendString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        if text.utf8.withContiguousStorageIfAvailable({ appendEscaped(utf8: $0, to: &out) }) == nil {
            Array(text.utf8).withUnsafeBufferPointer { appendEscaped(utf8: $0, to: &out) }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static let hexDigits: StaticString = "0123456789abcdef"

    /// How many bytes at the start of `bytes` need no escape (none is below 0x20, `"` or `\\`): eight at a time.
    package static func plainPrefix(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let count = bytes.count
        let ones: UInt64 = 0x0101_0101_0101_0101
        var i = 0
        while i + 8 <= count {
            let word = UnsafeRawPointer(base).loadUnaligned(fromByteOffset: i, as: UInt64.self)
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            let control = (word &- ones &* 0x20) & ~word  // a byte below 0x20 (exact for any bound up to 0x80)
            let special = control | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
            if special & (ones &* 0x80) != 0 { break }
            i += 8
        }
        while i < count {
            let byte = base[i]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { break }
            i += 1
        }
        return i
    }

    /// `bytes` (valid UTF-8) with `"`, `\\` and control characters escaped, without the quotes around them.
    package static func appendEscaped(utf8 bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        let plain = plainPrefix(bytes)
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<plain]))
        for byte in bytes[plain...] {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case UInt8(ascii: "\n"): out.append(contentsOf: #"\n"#.utf8)
            case UInt8(ascii: "\r"): out.append(contentsOf: #"\r"#.utf8)
            case UInt8(ascii: "\t"): out.append(contentsOf: #"\t"#.utf8)
            case ..<0x20:
                out.append(contentsOf: #"\u00"#.utf8)
                out.append(hexDigits.utf8Start[Int(byte >> 4)])
                out.append(hexDigits.utf8Start[Int(byte & 15)])
            default: out.append(byte)
            }
        }
    }
}
