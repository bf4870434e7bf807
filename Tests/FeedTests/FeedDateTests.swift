import Foundation
import Testing

@testable import DocSyncFeed

/// RFC 3339 parsing and the `YYYY-MM-DDTHH:MM:SSZ` output format: one row per rule.
@Suite(.timeLimit(.minutes(5)))
struct FeedDateTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let rule: String
        let text: String
        /// Seconds since 1970 (UTC), or nil when the text must be refused.
        let epoch: Double?
        var testDescription: String { rule }
    }

    static let rows: [Row] = [
        Row(rule: "UTC with Z", text: "2024-02-29T23:59:59Z", epoch: 1_709_251_199),
        Row(rule: "negative offset is added", text: "2017-04-06T14:56:28-04:00", epoch: 1_491_504_988),
        Row(rule: "half-hour positive offset is subtracted", text: "2016-06-16T09:05:00+10:30", epoch: 1_466_030_100),
        Row(rule: "quarter-hour offset", text: "2022-07-04T12:00:00+05:45", epoch: 1_656_915_300),
        Row(rule: "+00:00 equals Z", text: "2024-02-29T23:59:59+00:00", epoch: 1_709_251_199),
        Row(rule: "fractional seconds kept", text: "1985-04-12T23:20:50.52Z", epoch: 482_196_050.52),
        Row(rule: "lowercase t and z", text: "2000-02-29t12:00:00z", epoch: 951_825_600),
        Row(rule: "surrounding whitespace ignored", text: "\n  2024-02-29T23:59:59Z \t", epoch: 1_709_251_199),
        Row(rule: "before 1970", text: "1969-12-31T23:59:59Z", epoch: -1),
        Row(rule: "leap second read as :59", text: "1990-12-31T23:59:60Z", epoch: 662_687_999),
        Row(rule: "offset required", text: "2024-02-29T23:59:59", epoch: nil),
        Row(rule: "date only refused", text: "2024-02-29", epoch: nil),
        Row(rule: "RFC 822 refused", text: "Thu, 06 Apr 2017 14:56:28 -0400", epoch: nil),
        Row(rule: "month 13 refused", text: "2024-13-01T00:00:00Z", epoch: nil),
        Row(rule: "Feb 29 in a common year refused", text: "2023-02-29T00:00:00Z", epoch: nil),
        Row(rule: "hour 24 refused", text: "2024-01-01T24:00:00Z", epoch: nil),
        Row(rule: "offset without colon refused", text: "2024-01-01T00:00:00+0100", epoch: nil),
        Row(rule: "offset hour 24 refused", text: "2024-01-01T00:00:00+24:00", epoch: nil),
        Row(rule: "empty fraction refused", text: "2024-01-01T00:00:00.Z", epoch: nil),
        Row(rule: "trailing garbage refused", text: "2024-01-01T00:00:00Zjunk", epoch: nil),
        Row(rule: "unpadded fields refused", text: "2017-4-6T14:56:28Z", epoch: nil),
        Row(rule: "empty refused", text: "", epoch: nil),
    ]

    @Test(arguments: rows)
    func parses(_ row: Row) {
        #expect(FeedDate.parse(row.text)?.timeIntervalSince1970 == row.epoch)
    }

    @Test(arguments: [
        (1_491_504_988.0, "2017-04-06T18:56:28Z"),
        (1_709_280_000.25, "2024-03-01T08:00:00Z"),
        (-1.0, "1969-12-31T23:59:59Z"),
        (0.0, "1970-01-01T00:00:00Z"),
        (951_825_600.0, "2000-02-29T12:00:00Z"),
    ])
    func formats(epoch: Double, expected: String) {
        #expect(FeedDate.format(Date(timeIntervalSince1970: epoch)) == expected)
    }
}
