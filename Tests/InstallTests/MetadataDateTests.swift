@testable import DocSyncInstall
import Foundation
import TestSupport
import Testing

/// `DocsetMetadata.date`, read for every installed docset on every sync: docsync's own timestamps take the cheap
/// parser and give what `ISO8601DateFormatter` gave; every other form is still read by `ISO8601DateFormatter`.
@Suite(.timeLimit(.minutes(10))) struct MetadataDateTests {
    @Test func docsyncsOwnTimestampsParseAsBefore() {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        for _ in 0..<500 {
            let date = Date(timeIntervalSince1970: Double(Int.random(in: 0...4_102_444_800, using: &random)))
            let stamp = DocsetMetadata.timestamp(date)
            #expect(stamp.utf8.count == 20 && stamp.hasSuffix("Z"), "\(stamp)")
            #expect(DocsetMetadata.date(stamp) == date, "\(stamp), seed \(random.seed)")
            #expect(DocsetMetadata.date(stamp) == ISO8601DateFormatter().date(from: stamp), "seed \(random.seed)")
        }
    }

    @Test func otherFormsAreReadAsBefore() {
        for text in [
            "2026-12-06T06:00:00+02:00", "2026-12-06T06:00:00.123Z", "2026-12-06", "", "garbage", "2026-13-06T06:00:00Z",
            "2026-12-06 06:00:00Z", "2026-12-06T06:00:00z",
        ] {
            #expect(DocsetMetadata.date(text) == ISO8601DateFormatter().date(from: text), "\(text)")
        }
    }
}
