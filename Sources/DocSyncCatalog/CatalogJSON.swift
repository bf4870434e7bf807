import DocSyncSupport
import Foundation

/// Reading loosely-typed catalogue JSON: numbers or strings where either appears in the wild. Pure.
enum CatalogJSON {
    /// `bytes` parsed in one pass (`JSONParser`: Zeal's 1.4 MB catalogue is parsed on every sync that selects
    /// from it); what the parser refuses goes to `JSONDecoder`, so a catalogue is refused only when both refuse it.
    static func decode(_ bytes: [UInt8], catalog: String) throws(CatalogError) -> JSONValue {
        if let value = try? JSONParser.parse(bytes) { return value }
        do {
            return try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
        } catch {
            let head = String(decoding: bytes.prefix(16), as: UTF8.self)
            throw .notJSON(catalog, detail: bytes.isEmpty ? "empty body" : "starts with \(escaped(head))")
        }
    }

    static func string(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let s): trimmed(s)
        case .number(let n): n.rounded() == n ? String(Int64(n)) : String(n)
        default: nil
        }
    }

    /// `text` without leading and trailing white space and newlines. Text that starts and ends with a visible ASCII
    /// character (Zeal's 1.4 MB of base64 icons) is returned as it is, without Foundation's trimming, which copies
    /// the string through UTF-16.
    static func trimmed(_ text: String) -> String {
        if let first = text.utf8.first, let last = text.utf8.last, (0x21..<0x7F).contains(first),
            (0x21..<0x7F).contains(last)
        {
            return text
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func nonEmpty(_ value: JSONValue?) -> String? { string(value).flatMap { $0.isEmpty ? nil : $0 } }

    static func strings(_ value: JSONValue?) -> [String] {
        guard case .array(let items) = value else { return [] }
        return items.compactMap(nonEmpty)
    }

    static func int64(_ value: JSONValue?) -> Int64? {
        switch value {
        case .number(let n) where n >= 0 && n < 9e18: Int64(n)
        case .string(let s): Int64(s)
        default: nil
        }
    }

    /// Control characters escaped, for quoting untrusted text in an error.
    static func escaped(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7f {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Removes commas that directly precede `}` or `]` outside strings (Kapeli's cheat.json has them).
    static func strippingTrailingCommas(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var inString = false
        var escape = false
        var pendingComma: Int? = nil
        for byte in bytes {
            if inString {
                out.append(byte)
                if escape {
                    escape = false
                } else if byte == UInt8(ascii: "\\") {
                    escape = true
                } else if byte
                    == UInt8(ascii: "\"")
                {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if let comma = pendingComma { out.remove(at: comma) }
                pendingComma = nil
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                break
            case UInt8(ascii: ","):
                out.append(byte)
                pendingComma = out.count - 1
                continue
            default:
                pendingComma = nil
            }
            if byte == UInt8(ascii: "\"") { inString = true }
            out.append(byte)
        }
        return out
    }
}
