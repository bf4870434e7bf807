import DocSync
import Foundation
import Testing
import TestSupport

@testable import DocSyncCLI

#if canImport(Glibc)
    import Glibc
#endif

/// `docsync changes --json`'s lines, written as bytes: the object (escapes, absent sides, sorted keys) read back by
/// `JSONSerialization`, and `at` written from a day number (no libc call per change), checked against a table and
/// against `gmtime_r` for seeded random instants.
@Suite(.timeLimit(.minutes(5)))
struct ChangesJSONLineTests {
    static func text(_ seconds: Double) -> String {
        var out: [UInt8] = []
        ChangeJSONLines.appendDate(Date(timeIntervalSince1970: seconds), to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    @Test(arguments: [
        (0.0, "1970-01-01T00:00:00Z"), (-1, "1969-12-31T23:59:59Z"), (951_782_400, "2000-02-29T00:00:00Z"),
        (1_795_446_000.999, "2026-11-23T15:00:00Z"), (4_107_542_399, "2100-02-28T23:59:59Z"),
        (4_107_542_400, "2100-03-01T00:00:00Z"), (253_402_300_799, "9999-12-31T23:59:59Z"),
    ])
    func table(seconds: Double, expected: String) {
        #expect(Self.text(seconds) == expected)
    }

    @Test func agreesWithGmtime() {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        for _ in 0..<20_000 {
            var seconds = time_t(Int64.random(in: -2_000_000_000...250_000_000_000, using: &random))
            var parts = tm()
            gmtime_r(&seconds, &parts)
            let expected = String(
                format: "%04d-%02d-%02dT%02d:%02d:%02dZ", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
                parts.tm_hour, parts.tm_min, parts.tm_sec)
            let got = Self.text(Double(seconds))
            #expect(got == expected, "seed \(random.seed), \(seconds) s")
            if got != expected { return }
        }
    }

    @Test(arguments: [
        DocsetChange(
            cursor: "00112233445566ff-2s", docset: "Qu\"o\\te\u{1}é", kind: .installed, from: nil, to: "1.0\n",
            fromVersionID: nil, toVersionID: "Q@x", at: Date(timeIntervalSince1970: 1_795_446_000)),
        DocsetChange(
            cursor: "00112233445566ff-2t", docset: "Go", kind: .updated, from: "", to: "1.22", fromVersionID: "Go@a",
            toVersionID: "Go@b", at: Date(timeIntervalSince1970: 0)),
        DocsetChange(
            cursor: "00112233445566ff-2u", docset: "Go", kind: .removed, from: "1.22", to: nil, fromVersionID: "Go@b",
            toVersionID: nil, at: Date(timeIntervalSince1970: 1)),
    ])
    func jsonLine(change: DocsetChange) throws {
        var out: [UInt8] = []
        ChangesCommand.append(change, json: true, to: &out)
        #expect(out.last == UInt8(ascii: "\n") && out.filter { $0 == UInt8(ascii: "\n") }.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(out)) as? [String: Any])
        #expect(object["cursor"] as? String == change.cursor)
        #expect(object["docset"] as? String == change.docset)
        #expect(object["kind"] as? String == change.kind.rawValue)
        #expect(object["from"] as? String == change.from)
        #expect(object["to"] as? String == change.to)
        #expect(object["from_version_id"] as? String == change.fromVersionID)
        #expect(object["to_version_id"] as? String == change.toVersionID)
        #expect(object["at"] as? String == Self.text(change.at.timeIntervalSince1970))
        #expect(object["schema"] as? Int != nil)
        let keys = try #require(String(decoding: out, as: UTF8.self).split(separator: ",").first)
        #expect(keys.hasPrefix(#"{"at":"#))
    }
}
