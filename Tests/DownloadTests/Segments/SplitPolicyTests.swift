import DocSyncDownload
import DocSyncHTTP
import Testing

/// When the first response allows a split, and how the file is cut ("Behaviour").
@Suite(.timeLimit(.minutes(5))) struct SplitPolicyTests {
    static let mib: Int64 = 1 << 20
    static let length: Int64 = 64 << 20
    static let strong = ("ETag", "\"v1\"")

    static func head(_ status: Int, _ fields: [(String, String)]) -> HTTPResponseHead {
        HTTPResponseHead(status: status, statusLine: "HTTP/1.1 \(status)", fields: fields)
    }

    static let whole206 = [("Content-Range", "bytes 0-\(length - 1)/\(length)"), ("Content-Length", "\(length)")]
    static let whole200 = [("Content-Length", "\(length)"), ("Accept-Ranges", "bytes")]

    struct Row: Sendable, CustomTestStringConvertible {
        let rule: String
        let head: HTTPResponseHead
        var connections = 4
        var expectedLength: Int64?
        let splits: Bool
        var testDescription: String { rule }
    }

    static let rows: [Row] = [
        Row(rule: "206 for the whole file with a strong ETag", head: head(206, whole206 + [strong]), splits: true),
        Row(rule: "200 with Accept-Ranges: bytes", head: head(200, whole200 + [strong]), splits: true),
        Row(
            rule: "strong Last-Modified is enough",
            head: head(
                206,
                whole206 + [
                    ("Last-Modified", "Sun, 06 Nov 1994 08:49:37 GMT"), ("Date", "Sun, 06 Nov 1994 09:49:37 GMT"),
                ]), splits: true),
        Row(rule: "one connection configured", head: head(206, whole206 + [strong]), connections: 1, splits: false),
        Row(rule: "200 without Accept-Ranges", head: head(200, [("Content-Length", "\(length)"), strong]), splits: false),
        Row(rule: "Accept-Ranges: none", head: head(200, [("Content-Length", "\(length)"), ("Accept-Ranges", "none"), strong]), splits: false),
        Row(rule: "weak ETag only", head: head(206, whole206 + [("ETag", "W/\"v1\"")]), splits: false),
        Row(rule: "no validator", head: head(206, whole206), splits: false),
        Row(
            rule: "Last-Modified too close to Date is weak",
            head: head(
                206,
                whole206 + [
                    ("Last-Modified", "Sun, 06 Nov 1994 08:49:37 GMT"), ("Date", "Sun, 06 Nov 1994 08:49:37 GMT"),
                ]), splits: false),
        Row(
            rule: "206 for part of the file",
            head: head(206, [("Content-Range", "bytes 0-99/\(length)"), ("Content-Length", "100"), strong]),
            splits: false),
        Row(rule: "length unknown (*)", head: head(206, [("Content-Range", "bytes 0-99/*"), strong]), splits: false),
        Row(rule: "200 without Content-Length", head: head(200, [("Accept-Ranges", "bytes"), strong]), splits: false),
        Row(rule: "content coding", head: head(206, whole206 + [strong, ("Content-Encoding", "gzip")]), splits: false),
        Row(
            rule: "shorter than twice the minimum segment",
            head: head(206, [("Content-Range", "bytes 0-\(32 * mib - 2)/\(32 * mib - 1)"), strong]), splits: false),
        Row(rule: "exactly twice the minimum segment", head: head(206, [("Content-Range", "bytes 0-\(32 * mib - 1)/\(32 * mib)"), strong]), splits: true),
        Row(rule: "not the expected length", head: head(206, whole206 + [strong]), expectedLength: 5, splits: false),
        Row(rule: "404", head: head(404, [strong]), splits: false),
        Row(rule: "an HTML page", head: head(200, whole200 + [strong, ("Content-Type", "text/html")]), splits: false),
    ]

    @Test(arguments: rows) func decide(_ row: Row) {
        let decision = SplitPolicy.decide(
            row.head, connections: row.connections, minimumSegment: 16 * Self.mib, expectedLength: row.expectedLength)
        if case .split = decision { #expect(row.splits) } else { #expect(!row.splits, "\(decision)") }
    }

    @Test func identityCarriesThePreconditionOfItsValidator() {
        let etag = SegmentIdentity(length: 1, validator: Validator(etag: "\"v1\""))
        #expect(etag.precondition == "If-Match: \"v1\"")
        let modified = SegmentIdentity(
            length: 1,
            validator: Validator(lastModified: "Sun, 06 Nov 1994 08:49:37 GMT", lastModifiedIsStrong: true))
        #expect(modified.precondition == "If-Unmodified-Since: Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(SegmentIdentity(length: 1, validator: Validator(etag: "W/\"v1\"")).precondition == nil)
    }

    @Test func segmentsTileTheFileOnChunkBoundaries() {
        let chunk: Int64 = 8 * Self.mib
        for (length, connections) in [(Self.length, 4), (500_000_000, 4), (33 * Self.mib + 5, 2), (Int64(40 << 20), 8)] {
            let plan = SplitPolicy.plan(
                length: length, chunkSize: chunk, minimumSegment: 16 * Self.mib, connections: connections)
            #expect(plan.first?.lowerBound == 0)
            #expect(plan.last?.upperBound == length)
            for (a, b) in zip(plan, plan.dropFirst()) { #expect(a.upperBound == b.lowerBound) }
            for range in plan {
                #expect(range.lowerBound % chunk == 0)
                #expect(range.count >= 16 * Self.mib || range.upperBound == length)
            }
        }
        // 500 MB over 4 connections: pieces of about a quarter of a connection's share, so the prefix keeps growing.
        #expect(SplitPolicy.plan(length: 500_000_000, chunkSize: chunk, minimumSegment: 16 * Self.mib, connections: 4).count == 15)
    }

    @Test func segmentRequestHeaders() {
        #expect(
            SegmentResponsePolicy.headers(asking: 100..<200, precondition: "If-Match: \"v1\"")
                == ["Range: bytes=100-199", "If-Match: \"v1\"", "Accept-Encoding: identity"])
        #expect(
            SegmentResponsePolicy.headers(asking: 0..<1, precondition: nil)
                == ["Range: bytes=0-0", "Accept-Encoding: identity"])
    }
}
