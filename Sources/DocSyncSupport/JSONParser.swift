/// A strict JSON parser (RFC 8259) into ``JSONValue``, for the JSON docsync reads on every run: catalogues (Zeal's
/// is 1.4 MB) and each installed docset's `meta.json`. `JSONDecoder` into `JSONValue` tries each kind in turn and
/// throws at every miss, several times slower than one pass over the bytes. Same results: numbers as `Double`, a
/// repeated member's last value kept, a leading UTF-8 byte order mark skipped, invalid UTF-8 or a lone surrogate
/// refused. Nesting deeper than ``maximumDepth`` is refused. Pure.
package enum JSONParser {
    /// The deepest nesting of arrays and objects accepted (`JSONDecoder`'s limit).
    package static let maximumDepth = 512

    /// The JSON value `bytes` hold (surrounding whitespace allowed, nothing else after it).
    package static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer throws(JSONParseError) in
            var reader = Reader(bytes: buffer)
            if buffer.starts(with: [0xEF, 0xBB, 0xBF]) { reader.index = 3 }
            let value = try reader.value(depth: 0)
            reader.skipWhitespace()
            guard reader.index == buffer.count else { throw JSONParseError(.trailing, at: reader.index) }
            return value
        }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x0A, 0x0D, 0x09: index += 1
                default: return
                }
            }
        }

        mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
            skipWhitespace()
            guard index < bytes.count else { throw JSONParseError(.end, at: index) }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try object(depth: depth + 1)
            case UInt8(ascii: "["): return try array(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"):
                try literal("true")
                return .bool(true)
            case UInt8(ascii: "f"):
                try literal("false")
                return .bool(false)
            case UInt8(ascii: "n"):
                try literal("null")
                return .null
            default: return .number(try number())
            }
        }

        private mutating func literal(_ word: StaticString) throws(JSONParseError) {
            let count = word.utf8CodeUnitCount
            guard bytes.count - index >= count,
                UnsafeBufferPointer(start: word.utf8Start, count: count).elementsEqual(bytes[index..<index + count])
            else { throw JSONParseError(.unexpected, at: index) }
            index += count
        }

        private mutating func object(depth: Int) throws(JSONParseError) -> JSONValue {
            guard depth <= JSONParser.maximumDepth else { throw JSONParseError(.tooDeep, at: index) }
            index += 1
            var members: [String: JSONValue] = [:]
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                    throw JSONParseError(.unexpected, at: index)
                }
                let key = try string()
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                    throw JSONParseError(.unexpected, at: index)
                }
                index += 1
                members[key] = try value(depth: depth)
                skipWhitespace()
                guard index < bytes.count else { throw JSONParseError(.end, at: index) }
                switch bytes[index] {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "}"):
                    index += 1
                    return .object(members)
                default: throw JSONParseError(.unexpected, at: index)
                }
            }
        }

        private mutating func array(depth: Int) throws(JSONParseError) -> JSONValue {
            guard depth <= JSONParser.maximumDepth else { throw JSONParseError(.tooDeep, at: index) }
            index += 1
            var items: [JSONValue] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(items)
            }
            while true {
                items.append(try value(depth: depth))
                skipWhitespace()
                guard index < bytes.count else { throw JSONParseError(.end, at: index) }
                switch bytes[index] {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "]"):
                    index += 1
                    return .array(items)
                default: throw JSONParseError(.unexpected, at: index)
                }
            }
        }

        /// A string at `index` (its opening quote): plain runs are taken as they are (validated as UTF-8),
        /// escapes decoded.
        private mutating func string() throws(JSONParseError) -> String {
            index += 1
            let start = index
            var plain = true  // no escape so far: the text is bytes[start..<index]
            var decoded: [UInt8] = []
            while true {
                guard index < bytes.count else { throw JSONParseError(.end, at: index) }
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    let text = plain ? UnsafeBufferPointer(rebasing: bytes[start..<index]) : nil
                    index += 1
                    if let text { return try Self.validated(text, at: start) }
                    return try decoded.withUnsafeBufferPointer { buffer throws(JSONParseError) in
                        try Self.validated(buffer, at: start)
                    }
                }
                if byte < 0x20 { throw JSONParseError(.control, at: index) }
                if byte == UInt8(ascii: "\\") {
                    if plain {
                        decoded.append(contentsOf: bytes[start..<index])
                        plain = false
                    }
                    try escape(into: &decoded)
                    continue
                }
                if !plain { decoded.append(byte) }
                index += 1
            }
        }

        private static func validated(_ text: UnsafeBufferPointer<UInt8>, at offset: Int) throws(JSONParseError)
            -> String
        {
            if !text.contains(where: { $0 >= 0x80 }) { return String(decoding: text, as: UTF8.self) }
            guard let string = String(validating: text, as: UTF8.self) else {
                throw JSONParseError(.invalidUTF8, at: offset)
            }
            return string
        }

        /// The escape at `index` (its backslash), appended to `out` as UTF-8.
        private mutating func escape(into out: inout [UInt8]) throws(JSONParseError) {
            guard index + 1 < bytes.count else { throw JSONParseError(.end, at: index) }
            let letter = bytes[index + 1]
            index += 2
            switch letter {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(letter)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar) {
                    guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"),
                        bytes[index + 1] == UInt8(ascii: "u")
                    else { throw JSONParseError(.surrogate, at: index) }
                    index += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw JSONParseError(.surrogate, at: index) }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(scalar) {
                    throw JSONParseError(.surrogate, at: index)
                }
                guard let unicode = Unicode.Scalar(scalar) else { throw JSONParseError(.surrogate, at: index) }
                out.append(contentsOf: UTF8.encode(unicode)!)
            default: throw JSONParseError(.escape, at: index - 1)
            }
        }

        private mutating func hex4() throws(JSONParseError) -> UInt32 {
            guard bytes.count - index >= 4 else { throw JSONParseError(.end, at: index) }
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let digit = bytes[index].hexDigitValue else { throw JSONParseError(.escape, at: index) }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }

        /// A number (RFC 8259's grammar: no leading zeros, `+`, `.5` or `NaN`), as the `Double` nearest to it.
        private mutating func number() throws(JSONParseError) -> Double {
            let start = index
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, Self.isDigit(bytes[index]) else { throw JSONParseError(.unexpected, at: start) }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
            } else {
                while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
            }
            var integral = true
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                integral = false
                index += 1
                guard index < bytes.count, Self.isDigit(bytes[index]) else { throw JSONParseError(.number, at: start) }
                while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
            }
            if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
                integral = false
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                    index += 1
                }
                guard index < bytes.count, Self.isDigit(bytes[index]) else { throw JSONParseError(.number, at: start) }
                while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
            }
            let text = UnsafeBufferPointer(rebasing: bytes[start..<index])
            // Up to 15 digits: exact in a Double, no text conversion needed.
            if integral, text.count <= 16, text.count - (text.first == UInt8(ascii: "-") ? 1 : 0) <= 15 {
                var value: Int64 = 0
                for byte in text where byte != UInt8(ascii: "-") { value = value * 10 + Int64(byte - 0x30) }
                return text.first == UInt8(ascii: "-") ? -Double(value) : Double(value)
            }
            guard let value = Double(String(decoding: text, as: UTF8.self)), value.isFinite else {
                throw JSONParseError(.number, at: start)
            }
            return value
        }

        private static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }
    }
}
