import DocSyncDownload
import DocSyncHTTP
import Testing

@Suite(.timeLimit(.minutes(10))) struct ResponsePolicyTests {
    static let p: Int64 = 1_000_000
    static let l: Int64 = 2_000_000
    static let asked: Int64 = p - 65_536
    static let state = ResumeState(committed: p, length: l, validator: Validator(etag: "\"v1\""))
    static let resume = ResponsePolicy.Context(state: state, plan: .range(from: asked, ifRange: "\"v1\""))
    static let fresh = ResponsePolicy.Context(state: ResumeState(), plan: .fresh(discardPartial: false))

    static func head(_ status: Int, _ fields: [(String, String)]) -> HTTPResponseHead {
        HTTPResponseHead(status: status, statusLine: "HTTP/1.1 \(status)", fields: fields)
    }

    /// A valid 206 answering the resume request, with `changes` applied (nil removes a field).
    static func partial(_ changes: [(String, String?)] = []) -> HTTPResponseHead {
        var fields: [(String, String)] = [
            ("Content-Range", "bytes \(asked)-\(l - 1)/\(l)"), ("Content-Length", "\(l - asked)"), ("ETag", "\"v1\""),
        ]
        for (name, value) in changes {
            fields.removeAll { $0.0 == name }
            if let value { fields.append((name, value)) }
        }
        return head(206, fields)
    }

    static let accepted = ResponseDecision.write(
        WritePlan(
            from: asked, end: l, total: l, truncateFirst: false, overlap: 65_536,
            validator: Validator(etag: "\"v1\"")))

    enum Expect: Sendable, Equatable {
        case exactly(ResponseDecision)
        case write, restart, reject, retry, nextAlternate, reResolve
    }

    struct Row: Sendable, CustomTestStringConvertible {
        let rule: String
        let head: HTTPResponseHead
        var context: ResponsePolicy.Context = ResponsePolicyTests.resume
        let expect: Expect
        var testDescription: String { rule }
    }

    static let rows: [Row] = [
        Row(
            rule: "D accepted: a valid 206 writes from the asked byte, comparing the overlap first",
            head: partial(), expect: .exactly(accepted)),
        Row(rule: "C22 206 to a request without Range", head: partial(), context: fresh, expect: .reject),
        Row(
            rule: "C23 200 to a range request truncates and restarts, never appends",
            head: head(200, [("Content-Length", "\(l)"), ("ETag", "\"v2\"")]),
            expect: .exactly(
                .write(
                    WritePlan(
                        from: 0, end: l, total: l, truncateFirst: true, overlap: 0,
                        validator: Validator(etag: "\"v2\""))))),
        Row(
            rule: "C23 200 to a fresh request records L and V",
            head: head(200, [("Content-Length", "10"), ("ETag", "\"v1\"")]), context: fresh,
            expect: .exactly(
                .write(
                    WritePlan(
                        from: 0, end: 10, total: 10, truncateFirst: true, overlap: 0,
                        validator: Validator(etag: "\"v1\""))))),
        Row(
            rule: "E48 200 without Content-Length: length unknown",
            head: head(200, [("Transfer-Encoding", "chunked")]), context: fresh,
            expect: .exactly(
                .write(
                    WritePlan(
                        from: 0, end: nil, total: nil, truncateFirst: true, overlap: 0,
                        validator: Validator())))),
        Row(
            rule: "E48 a close-delimited 200 without a digest cannot be verified",
            head: head(200, []), context: fresh, expect: .nextAlternate),
        Row(
            rule: "E48 a close-delimited 200 with a digest is taken (the digest decides)",
            head: head(200, []),
            context: .init(state: ResumeState(digestKnown: true), plan: .fresh(discardPartial: false)),
            expect: .write),
        Row(
            rule: "E48 an HTTP/2 200 without Content-Length is framed",
            head: HTTPResponseHead(status: 200, statusLine: "HTTP/2 200"), context: fresh, expect: .write),
        Row(
            rule: "C25 416 with the durable length is complete",
            head: head(416, [("Content-Range", "bytes */\(l)")]),
            context: .init(state: ResumeState(committed: l, length: l), plan: .range(from: l - 10, ifRange: nil)),
            expect: .exactly(.complete)),
        Row(
            rule: "C25 416 when the remote shrank is never complete",
            head: head(416, [("Content-Range", "bytes */\(p)")]), expect: .restart),
        Row(rule: "C25 416 without Content-Range", head: head(416, []), expect: .restart),
        Row(rule: "C26 412 restarts without validators", head: head(412, []), expect: .restart),
        Row(rule: "C27 304 to an unconditional request", head: head(304, []), expect: .nextAlternate),
        Row(rule: "C28 404 on the mirror itself", head: head(404, []), expect: .nextAlternate),
        Row(rule: "C28 403 on the canonical URL", head: head(403, []), expect: .nextAlternate),
        Row(
            rule: "G56 403 from an expired signed redirect target re-resolves",
            head: head(403, []), context: .init(state: state, plan: resume.plan, redirected: true), expect: .reResolve),
        Row(
            rule: "C28 410 from a redirect target re-resolves",
            head: head(410, []), context: .init(state: state, plan: resume.plan, redirected: true), expect: .reResolve),
        Row(
            rule: "C29 503 with Retry-After seconds",
            head: head(503, [("Retry-After", "7")]), expect: .exactly(.retryLater(after: 7, "HTTP 503"))),
        Row(
            rule: "C29 429 with Retry-After as a date",
            head: head(
                429, [("Retry-After", "Sun, 06 Nov 1994 08:50:37 GMT"), ("Date", "Sun, 06 Nov 1994 08:49:37 GMT")]),
            expect: .exactly(.retryLater(after: 60, "HTTP 429"))),
        Row(
            rule: "C29 408 and 5xx retry later", head: head(502, []),
            expect: .exactly(.retryLater(after: nil, "HTTP 502"))),
        Row(rule: "C30 1xx interim responses are ignored", head: head(100, []), expect: .exactly(.ignore)),
        Row(
            rule: "C30 a redirect libcurl follows is ignored", head: head(302, [("Location", "/x")]),
            expect: .exactly(.ignore)),
        Row(rule: "C30 a redirect without Location is final", head: head(302, []), expect: .nextAlternate),
        Row(rule: "D32 missing Content-Range", head: partial([("Content-Range", nil)]), expect: .reject),
        Row(
            rule: "D33 several Content-Range fields",
            head: head(206, [("Content-Range", "bytes \(asked)-\(l - 1)/\(l)"), ("Content-Range", "bytes 0-1/\(l)")]),
            expect: .reject),
        Row(
            rule: "D34 Content-Range without unit", head: partial([("Content-Range", "\(asked)-\(l - 1)/\(l)")]),
            expect: .reject),
        Row(
            rule: "D35 206 starting before the asked byte",
            head: partial([("Content-Range", "bytes \(asked - 4096)-\(l - 1)/\(l)"), ("Content-Length", nil)]),
            expect: .restart),
        Row(
            rule: "D35 206 starting after the asked byte",
            head: partial([("Content-Range", "bytes \(asked + 1)-\(l - 1)/\(l)"), ("Content-Length", nil)]),
            expect: .restart),
        Row(
            rule: "D36 last before first", head: partial([("Content-Range", "bytes \(asked)-\(asked - 1)/\(l)")]),
            expect: .reject),
        Row(
            rule: "D37 complete length * on resume",
            head: partial([("Content-Range", "bytes \(asked)-\(l - 1)/*")]), expect: .reject),
        Row(
            rule: "D38 complete length differs from L (same ETag)",
            head: partial([("Content-Range", "bytes \(asked)-\(l - 1)/\(l + 1)")]), expect: .restart),
        Row(
            rule: "D39 short 206 is accepted (the rest is asked for afterwards)",
            head: partial([("Content-Range", "bytes \(asked)-\(asked + 99)/\(l)"), ("Content-Length", "100")]),
            expect: .exactly(
                .write(
                    WritePlan(
                        from: asked, end: asked + 100, total: l, truncateFirst: false,
                        overlap: 65_536, validator: Validator(etag: "\"v1\""))))),
        Row(
            rule: "D40 last at or past L", head: partial([("Content-Range", "bytes \(asked)-\(l)/\(l)")]),
            expect: .reject),
        Row(
            rule: "D41 Content-Length differs from the span", head: partial([("Content-Length", "5")]), expect: .reject),
        Row(
            rule: "D41 two Content-Length fields",
            head: head(
                206,
                [
                    ("Content-Range", "bytes \(asked)-\(l - 1)/\(l)"), ("Content-Length", "\(l - asked)"),
                    ("Content-Length", "\(l - asked)"),
                ]),
            expect: .reject),
        Row(
            rule: "D42 multipart/byteranges answer to one range",
            head: partial([("Content-Type", "multipart/byteranges; boundary=x")]), expect: .reject),
        Row(rule: "D43 ETag changed on the 206", head: partial([("ETag", "\"v2\"")]), expect: .restart),
        Row(rule: "D43 ETag absent on the 206 is allowed", head: partial([("ETag", nil)]), expect: .write),
        Row(
            rule: "D43 Last-Modified changed on the 206",
            head: partial([("Last-Modified", "Mon, 07 Nov 1994 08:49:37 GMT")]),
            context: .init(
                state: ResumeState(
                    committed: p, length: l,
                    validator: Validator(etag: "\"v1\"", lastModified: "Sun, 06 Nov 1994 08:49:37 GMT")),
                plan: resume.plan),
            expect: .restart),
        Row(rule: "D44 gzip-encoded 206", head: partial([("Content-Encoding", "gzip")]), expect: .restart),
        Row(rule: "D44 identity encoding is fine", head: partial([("Content-Encoding", "identity")]), expect: .write),
        Row(
            rule: "D44 gzip-encoded 200 is not written",
            head: head(200, [("Content-Encoding", "gzip"), ("Content-Length", "5")]), context: fresh, expect: .reject),
        Row(
            rule: "D45 chunked 206 still gets every Content-Range check",
            head: partial([
                ("Content-Length", nil), ("Transfer-Encoding", "chunked"),
                ("Content-Range", "bytes \(asked)-\(l - 1)/\(l + 5)"),
            ]),
            expect: .restart),
        Row(
            rule: "G60 a 200 with another length than the expected one goes to the next mirror",
            head: head(200, [("Content-Length", "11")]),
            context: .init(state: ResumeState(), plan: .fresh(discardPartial: false), expectedLength: 10),
            expect: .nextAlternate),
    ]

    @Test(arguments: rows) func decides(_ row: Row) {
        let decision = ResponsePolicy.decide(row.head, row.context)
        switch row.expect {
        case .exactly(let expected): #expect(decision == expected)
        case .write: #expect(decision.writes)
        case .restart: #expect(Self.kind(decision) == "restart", "\(decision)")
        case .reject: #expect(Self.kind(decision) == "reject", "\(decision)")
        case .retry: #expect(Self.kind(decision) == "retry", "\(decision)")
        case .nextAlternate: #expect(Self.kind(decision) == "nextAlternate", "\(decision)")
        case .reResolve: #expect(Self.kind(decision) == "reResolve", "\(decision)")
        }
    }

    @Test func c31ErrorBodiesAreNeverWritten() {
        for status in [401, 403, 404, 410, 412, 416, 429, 500, 503] {
            #expect(!ResponsePolicy.decide(Self.head(status, []), Self.resume).writes)
        }
    }

    static func kind(_ decision: ResponseDecision) -> String {
        switch decision {
        case .ignore: "ignore"
        case .write: "write"
        case .complete: "complete"
        case .restart: "restart"
        case .reject: "reject"
        case .retryLater: "retry"
        case .nextAlternate: "nextAlternate"
        case .reResolve: "reResolve"
        }
    }
}

@Suite(.timeLimit(.minutes(10))) struct ValidatorTests {
    @Test func b16WeakETagIsNotStrong() {
        let head = HTTPResponseHead(status: 200, fields: [("ETag", "W/\"x\"")])
        #expect(Validator(head: head).ifRange == nil)
    }

    @Test func b16LastModifiedIsStrongOnlyOneSecondBeforeDate() {
        let strong = HTTPResponseHead(
            status: 200,
            fields: [("Last-Modified", "Sun, 06 Nov 1994 08:49:36 GMT"), ("Date", "Sun, 06 Nov 1994 08:49:37 GMT")])
        let same = HTTPResponseHead(
            status: 200,
            fields: [("Last-Modified", "Sun, 06 Nov 1994 08:49:37 GMT"), ("Date", "Sun, 06 Nov 1994 08:49:37 GMT")])
        let noDate = HTTPResponseHead(status: 200, fields: [("Last-Modified", "Sun, 06 Nov 1994 08:49:36 GMT")])
        let obsolete = HTTPResponseHead(
            status: 200,
            fields: [("Last-Modified", "Sunday, 06-Nov-94 08:49:37 GMT"), ("Date", "Sun, 06 Nov 1994 09:49:37 GMT")])
        #expect(Validator(head: strong).ifRange == "Sun, 06 Nov 1994 08:49:36 GMT")
        #expect(Validator(head: same).ifRange == nil)
        #expect(Validator(head: noDate).ifRange == nil)
        #expect(Validator(head: obsolete).ifRange == nil)
    }

    @Test func b16AWeakETagAlsoHidesLastModified() {
        let head = HTTPResponseHead(
            status: 200,
            fields: [
                ("ETag", "W/\"x\""), ("Last-Modified", "Sun, 06 Nov 1994 08:49:36 GMT"),
                ("Date", "Sun, 06 Nov 1994 08:50:37 GMT"),
            ])
        #expect(Validator(head: head).ifRange == nil)
    }
}

@Suite(.timeLimit(.minutes(10))) struct RetryPolicyTests {
    @Test func h61BackoffDoublesWithJitterAndCaps() {
        var policy = RetryPolicy()
        policy.baseDelay = 1
        policy.maxDelay = 30
        #expect(policy.delay(attempt: 1, jitter: 0) == 1)
        #expect(policy.delay(attempt: 3, jitter: 0) == 4)
        #expect(policy.delay(attempt: 3, jitter: 0.5) > 5.6 && policy.delay(attempt: 3, jitter: 0.5) < 5.7)
        #expect(policy.delay(attempt: 20, jitter: 0.3) == 30)
    }

    @Test func h61RetryAfterIsHonouredButCapped() {
        var policy = RetryPolicy()
        policy.maxRetryAfter = 120
        #expect(policy.delay(attempt: 1, retryAfter: 10, jitter: 0) == 10)
        #expect(policy.delay(attempt: 1, retryAfter: 100_000, jitter: 0) == 120)
    }
}
