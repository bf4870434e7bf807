import Foundation
import Testing
import TestSupport

@testable import DocSyncCLI

#if canImport(Glibc)
    import Glibc
#endif

/// `docsync changes --json`'s `at`: the date written from a day number (no libc call per change), checked against a
/// table and against `gmtime_r` for seeded random instants.
@Suite(.timeLimit(.minutes(1)))
struct ChangesDateTests {
    static func text(_ seconds: Double) -> String {
        var out: [UInt8] = []
        ChangesCommand.appendDate(Date(timeIntervalSince1970: seconds), to: &out)
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
}
