import DocSyncDownload
import DocSyncHTTP
import Testing

/// Identity checks on every extra response: same validator, same total length, exactly the asked range;
/// mirror faults are reported and excluded, never spliced.
@Suite(.timeLimit(.minutes(5))) struct SegmentResponsePolicyTests {
    static let length: Int64 = 64 << 20
    static let asked: Range<Int64> = (16 << 20)..<(32 << 20)
    static let identity = SegmentIdentity(length: length, validator: Validator(etag: "\"v1\""))

    static func head(_ status: Int, _ fields: [(String, String)]) -> HTTPResponseHead {
        HTTPResponseHead(status: status, statusLine: "HTTP/1.1 \(status)", fields: fields)
    }

    /// A valid 206 for `asked`, with `changes` applied (nil removes a field).
    static func partial(_ changes: [(String, String?)] = []) -> HTTPResponseHead {
        var fields: [(String, String)] = [
            ("Content-Range", "bytes \(asked.lowerBound)-\(asked.upperBound - 1)/\(length)"),
            ("Content-Length", "\(asked.count)"), ("ETag", "\"v1\""), ("Content-Type", "application/x-tar"),
        ]
        for (name, value) in changes {
            fields.removeAll { $0.0 == name }
            if let value { fields.append((name, value)) }
        }
        return head(206, fields)
    }

    enum Expect: Sendable, Equatable {
        case accept, adopt, originChanged, alternateFault, readmit, retry, ignore
    }

    struct Row: Sendable, CustomTestStringConvertible {
        let rule: String
        let head: HTTPResponseHead
        var origin = true
        var digestKnown = false
        var admission = false
        let expect: Expect
        var testDescription: String { rule }
    }

    static let rows: [Row] = [
        Row(rule: "exact 206 with the same ETag", head: partial(), expect: .accept),
        Row(rule: "another mirror, same ETag", head: partial(), origin: false, expect: .accept),
        Row(rule: "ETag missing on the 206", head: partial([("ETag", nil)]), expect: .alternateFault),
        Row(rule: "origin's ETag changed (If-Match ignored)", head: partial([("ETag", "\"v2\"")]), expect: .originChanged),
        Row(rule: "mirror with another ETag", head: partial([("ETag", "\"m2\"")]), origin: false, expect: .alternateFault),
        Row(
            rule: "mirror with another ETag, feed SHA-256 known", head: partial([("ETag", "\"m2\"")]), origin: false,
            digestKnown: true, expect: .readmit),
        Row(
            rule: "admission without precondition: own strong ETag adopted", head: partial([("ETag", "\"m2\"")]),
            origin: false, digestKnown: true, admission: true, expect: .adopt),
        Row(
            rule: "admission without a strong validator", head: partial([("ETag", "W/\"m2\"")]), origin: false,
            digestKnown: true, admission: true, expect: .alternateFault),
        Row(rule: "412 from the origin", head: head(412, []), expect: .originChanged),
        Row(rule: "412 from a mirror", head: head(412, []), origin: false, expect: .alternateFault),
        Row(rule: "412 from a mirror, feed SHA-256 known", head: head(412, []), origin: false, digestKnown: true, expect: .readmit),
        Row(
            rule: "another total length from a mirror (a different file)",
            head: partial([("Content-Range", "bytes \(asked.lowerBound)-\(asked.upperBound - 1)/\(length + 1)")]),
            origin: false, expect: .alternateFault),
        Row(
            rule: "another total length from the origin",
            head: partial([("Content-Range", "bytes \(asked.lowerBound)-\(asked.upperBound - 1)/\(length + 1)")]),
            expect: .originChanged),
        Row(
            rule: "range starts elsewhere",
            head: partial([
                ("Content-Range", "bytes \(asked.lowerBound - 1)-\(asked.upperBound - 1)/\(length)"),
                ("Content-Length", "\(asked.count + 1)"),
            ]), expect: .alternateFault),
        Row(
            rule: "short 206 (not exactly the asked range)",
            head: partial([
                ("Content-Range", "bytes \(asked.lowerBound)-\(asked.upperBound - 2)/\(length)"),
                ("Content-Length", "\(asked.count - 1)"),
            ]), expect: .alternateFault),
        Row(
            rule: "open-ended 206 past the asked end",
            head: partial([
                ("Content-Range", "bytes \(asked.lowerBound)-\(length - 1)/\(length)"),
                ("Content-Length", "\(length - asked.lowerBound)"),
            ]), expect: .alternateFault),
        Row(rule: "complete length *", head: partial([("Content-Range", "bytes \(asked.lowerBound)-\(asked.upperBound - 1)/*")]), origin: false, expect: .alternateFault),
        Row(rule: "no Content-Range", head: partial([("Content-Range", nil)]), expect: .alternateFault),
        Row(rule: "Content-Length disagrees", head: partial([("Content-Length", "5")]), expect: .alternateFault),
        Row(rule: "empty 206", head: partial([("Content-Length", "0")]), expect: .alternateFault),
        Row(rule: "gzip 206", head: partial([("Content-Encoding", "gzip")]), expect: .alternateFault),
        Row(rule: "multipart 206", head: partial([("Content-Type", "multipart/byteranges; boundary=x")]), expect: .alternateFault),
        Row(rule: "HTML as 206", head: partial([("Content-Type", "text/html; charset=utf-8")]), expect: .alternateFault),
        Row(rule: "soft 404: HTML page as 200", head: head(200, [("Content-Type", "text/html"), ("Content-Length", "512")]), origin: false, expect: .alternateFault),
        Row(rule: "empty 200", head: head(200, [("Content-Length", "0")]), origin: false, expect: .alternateFault),
        Row(rule: "200 ignoring Range", head: head(200, [("Content-Length", "\(length)"), ("ETag", "\"v1\"")]), origin: false, expect: .alternateFault),
        Row(rule: "200 with a new ETag from the origin", head: head(200, [("Content-Length", "\(length)"), ("ETag", "\"v2\"")]), expect: .originChanged),
        Row(rule: "404", head: head(404, []), origin: false, expect: .alternateFault),
        Row(rule: "416 inside the file", head: head(416, [("Content-Range", "bytes */5")]), origin: false, expect: .alternateFault),
        Row(rule: "503", head: head(503, [("Retry-After", "2")]), expect: .retry),
        Row(rule: "429", head: head(429, []), origin: false, expect: .retry),
        Row(rule: "100 Continue", head: head(100, []), expect: .ignore),
        Row(rule: "redirect with Location", head: head(302, [("Location", "/x")]), expect: .ignore),
        Row(rule: "redirect without Location", head: head(302, []), expect: .alternateFault),
    ]

    @Test(arguments: rows) func judge(_ row: Row) {
        let context = SegmentResponsePolicy.Context(
            identity: Self.identity, asked: Self.asked, expected: row.admission ? nil : Self.identity.validator,
            isOrigin: row.origin, digestKnown: row.digestKnown)
        let verdict = SegmentResponsePolicy.judge(row.head, context)
        let kind: Expect =
            switch verdict {
            case .accept(let adopt): adopt == nil ? .accept : .adopt
            case .originChanged: .originChanged
            case .alternateFault: .alternateFault
            case .readmit: .readmit
            case .retry: .retry
            case .ignore: .ignore
            }
        #expect(kind == row.expect, "\(verdict)")
    }

    @Test func lastModifiedIdentityMustBeShownUnchanged() {
        let modified = "Sun, 06 Nov 1994 08:49:37 GMT"
        let identity = SegmentIdentity(
            length: Self.length, validator: Validator(lastModified: modified, lastModifiedIsStrong: true))
        let context = SegmentResponsePolicy.Context(
            identity: identity, asked: Self.asked, expected: identity.validator, isOrigin: true, digestKnown: false)
        let same = Self.partial([("ETag", nil), ("Last-Modified", modified)])
        #expect(SegmentResponsePolicy.judge(same, context) == .accept(adopt: nil))
        let changed = Self.partial([("ETag", nil), ("Last-Modified", "Mon, 07 Nov 1994 08:49:37 GMT")])
        guard case .originChanged = SegmentResponsePolicy.judge(changed, context) else {
            Issue.record("a changed Last-Modified must restart")
            return
        }
    }
}
