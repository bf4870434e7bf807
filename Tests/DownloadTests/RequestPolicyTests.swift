import DocSyncDownload
import Testing

@Suite(.timeLimit(.minutes(5))) struct RequestPolicyTests {
    static let strong = Validator(etag: "\"abc\"", lastModified: "Sun, 06 Nov 1994 08:49:37 GMT")
    static let weak = Validator(etag: "W/\"abc\"")
    static let strongDate = Validator(lastModified: "Sun, 06 Nov 1994 08:49:37 GMT", lastModifiedIsStrong: true)
    static let weakDate = Validator(lastModified: "Sun, 06 Nov 1994 08:49:37 GMT", lastModifiedIsStrong: false)

    struct Row: Sendable, CustomTestStringConvertible {
        let rule: String
        let state: ResumeState
        let plan: RequestPlan
        var testDescription: String { rule }
    }

    static let rows: [Row] = [
        Row(
            rule: "B15 resume sends Range from P-W with a strong If-Range",
            state: ResumeState(committed: 1_000_000, length: 2_000_000, validator: strong),
            plan: .range(from: 1_000_000 - 65_536, ifRange: "\"abc\"")),
        Row(
            rule: "B16 a weak ETag is never sent; with D known the range goes without If-Range",
            state: ResumeState(committed: 1_000_000, length: 2_000_000, validator: weak, digestKnown: true),
            plan: .range(from: 1_000_000 - 65_536, ifRange: nil)),
        Row(
            rule: "B16 strong Last-Modified is used when there is no ETag",
            state: ResumeState(committed: 100_000, length: 200_000, validator: strongDate),
            plan: .range(from: 100_000 - 65_536, ifRange: "Sun, 06 Nov 1994 08:49:37 GMT")),
        Row(
            rule: "B16 a weak Last-Modified is not a validator",
            state: ResumeState(committed: 100_000, length: 200_000, validator: weakDate),
            plan: .fresh(discardPartial: true)),
        Row(
            rule: "B17 no validator and no digest: restart from 0",
            state: ResumeState(committed: 100_000, length: 200_000, validator: Validator()),
            plan: .fresh(discardPartial: true)),
        Row(
            rule: "B17 no validator but a trusted digest: range resume",
            state: ResumeState(committed: 100_000, length: 200_000, validator: Validator(), digestKnown: true),
            plan: .range(from: 100_000 - 65_536, ifRange: nil)),
        Row(
            rule: "B18 overlap never reaches below 0",
            state: ResumeState(committed: 1000, length: 200_000, validator: strong),
            plan: .range(from: 0, ifRange: "\"abc\"")),
        Row(
            rule: "B19 P == 0: plain GET",
            state: ResumeState(committed: 0, length: 200_000, validator: strong), plan: .fresh(discardPartial: false)),
        Row(
            rule: "B20 P == L: no request, finalize",
            state: ResumeState(committed: 200_000, length: 200_000, validator: strong), plan: .finalize),
        Row(
            rule: "E48 unknown length: no resume",
            state: ResumeState(committed: 100, length: nil, validator: strong), plan: .fresh(discardPartial: true)),
        Row(
            rule: "I65 zero-length resource starts with a plain GET",
            state: ResumeState(committed: 0, length: nil), plan: .fresh(discardPartial: false)),
    ]

    @Test(arguments: rows) func plans(_ row: Row) {
        #expect(RequestPolicy.plan(row.state) == row.plan)
    }

    @Test func b15HeadersAreExactlyRangeIfRangeAndIdentity() {
        #expect(
            RequestPlan.range(from: 5, ifRange: "\"x\"").headers
                == ["Range: bytes=5-", "If-Range: \"x\"", "Accept-Encoding: identity"])
        #expect(RequestPlan.fresh(discardPartial: false).headers == ["Accept-Encoding: identity"])  // B19
    }

    @Test func b21OnlyOneOpenRangeIsEverRequested() {
        let headers = RequestPlan.range(from: 7, ifRange: nil).headers
        #expect(headers.filter { $0.hasPrefix("Range:") } == ["Range: bytes=7-"])
    }
}
