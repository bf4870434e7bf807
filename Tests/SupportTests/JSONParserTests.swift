import DocSyncSupport
import Foundation
import TestSupport
import Testing

/// `JSONParser`, which reads catalogues and every installed docset's `meta.json` and host record on every sync: the
/// values `JSONDecoder` gives for the same bytes, and a refusal (with its kind) for what is not JSON.
@Suite(.timeLimit(.minutes(5))) struct JSONParserTests {
    private func foundation(_ bytes: [UInt8]) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: Data(bytes))
    }

    @Test func valuesAreThoseJSONDecoderGives() throws {
        for text in [
            "null", "true", "false", "0", "-0", "12", "-12.5", "1e3", "1E-2", "2.5e+10", "123456789012345",
            "1234567890123456789", "-9007199254740993", "0.1", "\"\"", "\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\"",
            "\"\\u00e9\\u65E5\\ud83d\\ude00\"", "\"é日本😀\"", "[]", "{}", " [1, [2, [3]], {\"a\": {}}] ",
            "{\"a\": 1, \"b\": [true, null, \"x\"], \"c\": {\"d\": -1.5e-3}}", "\u{FEFF}{\"bom\": 1}", "\t\r\n 7 \n",
        ] {
            let bytes = Array(text.utf8)
            let expected = try #require(foundation(bytes), "JSONDecoder refuses \(text.debugDescription)")
            #expect(try JSONParser.parse(bytes) == expected, "\(text.debugDescription)")
        }
    }

    @Test func whatIsNotJSONIsRefusedWithItsKind() {
        let cases: [(String, JSONParseError.Kind)] = [
            ("", .end), ("[1, 2", .end), ("{\"a\": 1", .end), ("\"open", .end), ("[1,]", .unexpected),
            ("{\"a\" 1}", .unexpected), ("{a: 1}", .unexpected), ("tru", .unexpected), ("nul", .unexpected),
            ("+1", .unexpected), (".5", .unexpected), ("NaN", .unexpected), ("1 2", .trailing), ("01", .trailing),
            ("{} x", .trailing), ("1.", .number), ("1e", .number), ("-", .unexpected), ("1e999", .number),
            ("\"a\u{1}b\"", .control), ("\"\\x\"", .escape), ("\"\\u12G4\"", .escape), ("\"\\ud800\"", .surrogate),
            ("\"\\ude00\"", .surrogate), ("\"\\ud800\\u0041\"", .surrogate),
        ]
        for (text, kind) in cases {
            #expect(throws: JSONParseError.self, "\(text.debugDescription)") { try JSONParser.parse(Array(text.utf8)) }
            do {
                _ = try JSONParser.parse(Array(text.utf8))
            } catch {
                #expect(error.kind == kind, "\(text.debugDescription): \(error)")
            }
        }
        #expect(throws: JSONParseError.self) { try JSONParser.parse([0x22, 0xC3, 0x28, 0x22]) }  // invalid UTF-8
        #expect(throws: JSONParseError.self) { try JSONParser.parse([0x22, 0xFF, 0x22]) }
    }

    /// RFC 8259 allows a zero integer part with an unsigned exponent (`0e6`); Foundation's `JSONDecoder` refuses it
    /// (while `JSONSerialization` reads 0), so this case is judged against the grammar, not against `JSONDecoder`.
    @Test func zeroWithAnUnsignedExponentIsANumber() throws {
        for text in ["0e6", "0E6", "-0e6", "[0e250]"] {
            let value = try JSONParser.parse(Array(text.utf8))
            let number = text.hasPrefix("[") ? JSONValue.array([.number(0)]) : .number(text.hasPrefix("-") ? -0.0 : 0)
            #expect(value == number, "\(text)")
        }
    }

    @Test func nestingIsBoundedAtJSONDecodersDepth() throws {
        let deepest = JSONParser.maximumDepth
        let fits = String(repeating: "[", count: deepest) + String(repeating: "]", count: deepest)
        _ = try JSONParser.parse(Array(fits.utf8))
        let tooDeep = String(repeating: "[", count: deepest + 1) + String(repeating: "]", count: deepest + 1)
        do {
            _ = try JSONParser.parse(Array(tooDeep.utf8))
            Issue.record("\(deepest + 1) levels were accepted")
        } catch {
            #expect(error.kind == .tooDeep)
        }
        // A million open brackets: refused at the limit, without recursing a million frames.
        #expect(throws: JSONParseError.self) { try JSONParser.parse([UInt8](repeating: 0x5B, count: 1_000_000)) }
    }

    /// Random documents (strings with escapes and non-ASCII text, numbers of every form, nesting) written by
    /// `JSONEncoder` and by hand give what `JSONDecoder` gives.
    @Test func randomDocumentsMatchJSONDecoder() throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        for round in 0..<300 {
            let text = Self.document(depth: 0, random: &random)
            let bytes = Array(text.utf8)
            guard let expected = foundation(bytes) else {
                Issue.record("JSONDecoder refuses the generated \(text.debugDescription), seed \(random.seed)")
                return
            }
            #expect(try JSONParser.parse(bytes) == expected, "round \(round), seed \(random.seed): \(text)")
            let encoded = Array(try JSONEncoder().encode(expected))
            #expect(try JSONParser.parse(encoded) == expected, "round \(round), seed \(random.seed)")
        }
    }

    private static func document(depth: Int, random: inout TestRandom) -> String {
        let pick = Int.random(in: 0..<(depth > 3 ? 5 : 7), using: &random)
        switch pick {
        case 0: return ["null", "true", "false"][Int.random(in: 0..<3, using: &random)]
        case 1: return number(random: &random)
        case 2, 3, 4: return string(random: &random)
        case 5:
            let items = (0..<Int.random(in: 0..<5, using: &random)).map { _ in
                document(depth: depth + 1, random: &random)
            }
            return "[" + items.joined(separator: ", ") + "]"
        default:
            let members = (0..<Int.random(in: 0..<5, using: &random)).map { index in
                "\"k\(index)" + string(random: &random).dropFirst() + ":" + document(depth: depth + 1, random: &random)
            }
            return "{" + members.joined(separator: ",\n ") + "}"
        }
    }

    private static func number(random: inout TestRandom) -> String {
        let sign = Bool.random(using: &random) ? "-" : ""
        let shift = Int.random(in: 0..<60, using: &random)
        let integer =
            Bool.random(using: &random) ? "0" : String(UInt64.random(in: 1...UInt64.max, using: &random) >> shift)
        let fraction =
            Bool.random(using: &random) ? "" : "." + String(UInt32.random(in: 0...UInt32.max, using: &random))
        let exponent =
            Bool.random(using: &random)
            ? ""
            : "e" + ["", "+", "-"][Int.random(in: 0..<3, using: &random)]
                + String(Int.random(in: 0...250, using: &random))
        // `JSONDecoder` refuses `0e6` (see `zeroWithAnUnsignedExponentIsANumber`), so against it a zero integer
        // part without a fraction takes a signed exponent.
        let unsignedExponent = exponent.dropFirst().first?.isNumber == true
        let signed = sign.isEmpty && integer == "0" && fraction.isEmpty && unsignedExponent
        return sign + integer + fraction + (signed ? "e+" + exponent.dropFirst() : exponent)
    }

    private static func string(random: inout TestRandom) -> String {
        let pieces = [
            "a", "Z", " ", "\\\"", "\\\\", "\\/", "\\n", "\\t", "\\u0001", "\\u00e9", "é", "日本", "😀",
            "\\ud83d\\ude00", "\\uFFFF", "%", "\u{7F}",
        ]
        return "\""
            + (0..<Int.random(in: 0..<12, using: &random)).map { _ in
                pieces[Int.random(in: 0..<pieces.count, using: &random)]
            }.joined() + "\""
    }
}
