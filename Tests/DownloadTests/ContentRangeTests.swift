import DocSyncDownload
import Testing

@Suite(.timeLimit(.minutes(5))) struct ContentRangeTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let rule: String
        let value: String
        let expected: ContentRange.Form?
        var testDescription: String { "\(rule): '\(value)'" }
    }

    static let rows: [Row] = [
        Row(
            rule: "D34 a plain range", value: "bytes 0-499/1234",
            expected: .satisfied(first: 0, last: 499, complete: 1234)),
        Row(
            rule: "D34 unit is case-insensitive", value: "Bytes 5-9/10",
            expected: .satisfied(first: 5, last: 9, complete: 10)),
        Row(
            rule: "D37 unknown complete length", value: "bytes 5-9/*",
            expected: .satisfied(first: 5, last: 9, complete: nil)),
        Row(rule: "C25 unsatisfied range of a 416", value: "bytes */1234", expected: .unsatisfied(complete: 1234)),
        Row(rule: "D34 unit missing (aria2 leniency)", value: "100-199/200", expected: nil),
        Row(rule: "D34 another unit", value: "items 0-1/2", expected: nil),
        Row(rule: "D34 request syntax", value: "bytes=0-1/2", expected: nil),
        Row(rule: "D34 garbage", value: "ooga-booga", expected: nil),
        Row(rule: "D34 empty", value: "", expected: nil),
        Row(rule: "D34 unit only", value: "bytes ", expected: nil),
        Row(rule: "D34 two spaces", value: "bytes  0-1/2", expected: nil),
        Row(rule: "D34 trailing junk", value: "bytes 0-1/2x", expected: nil),
        Row(rule: "D34 first number only (curl leniency)", value: "bytes 100", expected: nil),
        Row(rule: "D34 open range", value: "bytes 100-/200", expected: nil),
        Row(rule: "D34 negative number", value: "bytes -1-5/10", expected: nil),
        Row(rule: "D34 plus sign", value: "bytes +1-5/10", expected: nil),
        Row(rule: "D34 spaces inside", value: "bytes 0 - 1/2", expected: nil),
        Row(rule: "D34 several ranges in one field", value: "bytes 0-1/10, 3-4/10", expected: nil),
        Row(rule: "D34 overflowing number", value: "bytes 0-99999999999999999999/99999999999999999999", expected: nil),
        Row(rule: "D34 both stars", value: "bytes */*", expected: nil),
        Row(rule: "D36 last before first", value: "bytes 10-5/20", expected: nil),
        Row(rule: "D36 complete equals last", value: "bytes 0-9/9", expected: nil),
        Row(rule: "D40 complete below last", value: "bytes 0-9/5", expected: nil),
        Row(
            rule: "D36 a one-byte range is valid", value: "bytes 9-9/10",
            expected: .satisfied(first: 9, last: 9, complete: 10)),
    ]

    @Test(arguments: rows) func parses(_ row: Row) {
        #expect(ContentRange(parsing: row.value)?.form == row.expected)
    }

    @Test func spanCountsBothEnds() {
        #expect(ContentRange(parsing: "bytes 10-19/100")?.span == 10)
        #expect(ContentRange(parsing: "bytes */100")?.span == nil)
    }
}
