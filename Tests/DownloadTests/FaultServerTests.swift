import DocSyncDownload
import DocSyncSupport
import Foundation
import TestSupport
import Testing

/// Hostile servers: every mode ends in the origin's exact bytes or a clear error with no output file.
@Suite(.timeLimit(.minutes(10))) struct FaultServerTests: FaultServerSuite {
    /// Checklist item E46.
    @Test func connectionClosedEarlyResumesWithExactHeaders() async throws {
        let f = try DownloadFixture()
        defer { f.remove() }
        let content = f.content
        let (outcome, requests) = try await run(f) { request, index in
            let response = FaultResponse.serve(content, to: request)
            return index == 0 ? response.closing(after: Self.cut) : response
        }
        expectOrigin(f, outcome)
        try #require(requests.count == 2)
        #expect(!requests[0].hasRange)  // B19
        #expect(requests[0].header("If-Range") == nil)
        #expect(requests[1].header("Range") == "bytes=\(Self.asked)-")  // B15, B18
        #expect(requests[1].header("If-Range") == "\"v1\"")
        #expect(requests[1].header("Accept-Encoding") == "identity")
        #expect((try? outcome.get().resumedFrom) == 0)
    }

    /// Checklist item C23.
    @Test func ignoresRangeWithLength() async throws {
        let f = try DownloadFixture()
        defer { f.remove() }
        let content = f.content
        let (outcome, requests) = try await run(f) { _, index in
            let whole = FaultResponse(
                status: 200, headers: [("Content-Length", "\(content.count)"), ("ETag", "\"v1\"")], body: content)
            return index == 0 ? whole.closing(after: Self.cut) : whole
        }
        expectOrigin(f, outcome)
        #expect(requests.count == 2 && requests[1].hasRange)  // asked for a range, got 200: rewritten from 0
    }

    /// Checklist item E48.
    @Test func ignoresRangeWithoutLengthNeedsTheDigest() async throws {
        let f = try DownloadFixture()
        defer { f.remove() }
        let content = f.content
        let handler: FaultServer.Handler = { _, index in
            let whole = FaultResponse(status: 200, headers: [("ETag", "\"v1\"")], body: content)
            return index == 0 ? whole.closing(after: Self.cut) : whole
        }
        // With a digest: the cut body fails verification, one fresh download succeeds, no Range is ever sent.
        let (outcome, requests) = try await run(f, sha256: f.sha256, handler: handler)
        expectOrigin(f, outcome)
        #expect(requests.count == 2 && requests.allSatisfy { !$0.hasRange })
        // Without one: a close-delimited body cannot be proven complete.
        let g = try DownloadFixture()
        defer { g.remove() }
        let (unverified, _) = try await run(g, handler: handler)
        expectFailure(g, unverified, [.http])
    }

    /// A resumed answer docsync must not append to the partial file (its first byte, body, total or encoding is not
    /// what was asked): the download starts over from byte 0 (a third request, without Range) and still ends with
    /// the origin's exact bytes.
    struct RefusedResume: Sendable, CustomTestStringConvertible {
        let behaviour: String
        /// The resume-checklist item (`../shared/reference/resume-checklist.md`).
        let item: String
        /// The answer to the ranged request asking from `start`, given the origin's `content`.
        let answer: @Sendable (_ content: [UInt8], _ request: FaultRequest, _ start: Int) -> FaultResponse
        var testDescription: String { "\(behaviour) (\(item))" }

        /// A 206 whose Content-Range starts `shift` bytes away from the asked offset.
        static func shifted(_ shift: Int, _ behaviour: String) -> RefusedResume {
            RefusedResume(behaviour: behaviour, item: "D35") { content, _, start in
                let first = start + shift
                return FaultResponse(
                    status: 206,
                    headers: [
                        ("Content-Range", "bytes \(first)-\(content.count - 1)/\(content.count)"),
                        ("Content-Length", "\(content.count - first)"), ("ETag", "\"v1\""),
                    ],
                    body: Array(content[first...]))
            }
        }
    }

    static let refusedResumes: [RefusedResume] = [
        .shifted(-4096, "a 206 starting before the asked byte"),
        .shifted(1, "a 206 starting after the asked byte"),
        RefusedResume(behaviour: "right headers over bytes from 1000 further on", item: "B18") {
            content, request, start in
            var response = FaultResponse.serve(content, to: request)
            response.body = Array(content[(start + 1000)...]) + [UInt8](repeating: 7, count: 1000)
            return response
        },
        RefusedResume(behaviour: "a Content-Range naming another total length", item: "D38") {
            content, request, start in
            FaultResponse.serve(content, to: request).replacing(
                "Content-Range", with: "bytes \(start)-\(content.count - 1)/\(content.count + 10)")
        },
        RefusedResume(behaviour: "a gzip-encoded 206", item: "D44") { content, request, _ in
            FaultResponse.serve(content, to: request).replacing("Content-Encoding", with: "gzip")
        },
    ]

    @Test(arguments: refusedResumes)
    func aRefusedResumeStartsOverAndEndsWithTheOriginsBytes(_ row: RefusedResume) async throws {
        let f = try DownloadFixture()
        defer { f.remove() }
        let content = f.content
        let (outcome, requests) = try await run(f) { request, index in
            if index == 0 { return FaultResponse.serve(content, to: request).closing(after: Self.cut) }
            guard let start = request.rangeStart else { return FaultResponse.serve(content, to: request) }
            return row.answer(content, request, start)
        }
        expectOrigin(f, outcome)
        #expect(requests.count == 3 && requests[1].hasRange && !requests[2].hasRange, "\(requests)")
    }

    /// Checklist item D39.
    @Test func short206AsksForTheRest() async throws {
        let f = try DownloadFixture()
        defer { f.remove() }
        let content = f.content
        let slice = 512 * 1024
        let (outcome, requests) = try await run(f) { request, index in
            guard index > 0, let start = request.rangeStart else {
                return FaultResponse.serve(content, to: request).closing(after: Self.cut)
            }
            let last = min(content.count, start + slice) - 1
            return FaultResponse(
                status: 206,
                headers: [
                    ("Content-Range", "bytes \(start)-\(last)/\(content.count)"),
                    ("Content-Length", "\(last - start + 1)"),
                    ("ETag", "\"v1\""),
                ],
                body: Array(content[start...last]))
        }
        expectOrigin(f, outcome)
        #expect(requests.count > 3)
        #expect(requests.dropFirst().allSatisfy { $0.hasRange })
    }

    /// Checklist item E47.
    @Test func overlongChunked206IsCutAtTheDeclaredEnd() async throws {
        let f = try DownloadFixture()
        defer { f.remove() }
        let content = f.content
        let (outcome, _) = try await run(f) { request, index in
            var response = FaultResponse.serve(content, to: request)
            if index == 0 { return response.closing(after: Self.cut) }
            guard request.hasRange else { return response }
            response = response.replacing("Content-Length", with: nil).replacing("Transfer-Encoding", with: "chunked")
            response.chunked = true
            response.body += [UInt8](repeating: 0xEE, count: 5000)
            return response
        }
        expectOrigin(f, outcome)
    }

    /// Checklist item E47.
    @Test func overlong200BodyNeverReachesTheFile() async throws {
        let f = try DownloadFixture()
        defer { f.remove() }
        let content = f.content
        let (outcome, _) = try await run(f) { request, _ in
            var response = FaultResponse.serve(content, to: request)
            response.body += [UInt8](repeating: 0xEE, count: 5000)
            return response
        }
        expectOrigin(f, outcome)
    }

    /// Checklist item C25.
    @Test func always416FailsWithoutOutput() async throws {
        let f = try DownloadFixture()
        defer { f.remove() }
        let content = f.content
        let (outcome, requests) = try await run(f) { request, index in
            if index == 0 { return FaultResponse.serve(content, to: request).closing(after: Self.cut) }
            return FaultResponse(
                status: 416, headers: [("Content-Type", "text/html")], body: Array("<h1>416</h1>".utf8))
        }
        expectFailure(f, outcome, [.tooManyRestarts])
        #expect(requests.count <= 8)  // H62: bounded
        let part = try? Data(contentsOf: URL(fileURLWithPath: f.stagingPath("docset/1.0", "part")))
        #expect(part.map { !String(decoding: $0, as: UTF8.self).contains("<h1>") } ?? true)  // C31
    }

    /// Checklist item D43.
    @Test func eTagChangesBetweenRequestsNeverMixesVersions() async throws {
        let f = try DownloadFixture()
        defer { f.remove() }
        let old = f.content
        let new = DownloadFixture.randomBytes(old.count, seed: 99)
        let (outcome, requests) = try await run(f) { request, index in
            if index == 0 { return FaultResponse.serve(old, to: request).closing(after: Self.cut) }
            return FaultResponse.serve(new, to: request, etag: "\"v\(index + 1)\"")  // If-Range "v1" fails: 200
        }
        if case .failure(let error) = outcome { Issue.record("\(error)") }
        #expect(f.outputSHA256 == SHA256.hash(new).description)
        #expect(requests.count == 2)
    }

    /// Checklist item B16.
    @Test func weakETagOnlyIsNeverSentInIfRange() async throws {
        let f = try DownloadFixture()
        defer { f.remove() }
        let content = f.content
        let handler: FaultServer.Handler = { request, index in
            let response = FaultResponse.serve(content, to: request, etag: "W/\"weak\"")
            return index == 0 ? response.closing(after: Self.cut) : response
        }
        // B17: with a trusted digest the range goes without If-Range.
        let (outcome, requests) = try await run(f, sha256: f.sha256, handler: handler)
        expectOrigin(f, outcome)
        #expect(requests.count == 2 && requests[1].hasRange)
        #expect(requests.allSatisfy { ($0.header("If-Range") ?? "").contains("W/") == false })
        #expect(requests.allSatisfy { $0.header("If-Range") == nil })
        // B17: without one, no resume at all.
        let g = try DownloadFixture()
        defer { g.remove() }
        let (fresh, freshRequests) = try await run(g, handler: handler)
        expectOrigin(g, fresh)
        #expect(freshRequests.count == 2 && !freshRequests[1].hasRange)
    }

    /// Checklist item H62.
    @Test func alternatingETagsThatAlwaysDropEndWithAClearError() async throws {
        let f = try DownloadFixture()
        defer { f.remove() }
        let content = f.content
        let (outcome, requests) = try await run(f, maxRestarts: 3) { request, index in
            FaultResponse.serve(content, to: request, etag: index % 2 == 0 ? "\"a\"" : "\"b\"")
                .closing(after: content.count / 2)
        }
        expectFailure(f, outcome, [.tooManyRestarts, .transport])
        #expect(requests.count < 12)
    }

    /// Checklist item F53.
    @Test func alternatingETagsStillFinishInOnePass() async throws {
        let f = try DownloadFixture()
        defer { f.remove() }
        let content = f.content
        let (outcome, requests) = try await run(f) { request, index in
            let response = FaultResponse.serve(content, to: request, etag: index % 2 == 0 ? "\"a\"" : "\"b\"")
            return index == 0 ? response.closing(after: Self.cut) : response
        }
        expectOrigin(f, outcome)
        #expect(requests.count == 2)
    }

    /// Checklist item D42.
    @Test func multipartAnswerIsNeverWritten() async throws {
        let f = try DownloadFixture()
        defer { f.remove() }
        let content = f.content
        let (outcome, requests) = try await run(f) { request, index in
            if index == 0 { return FaultResponse.serve(content, to: request).closing(after: Self.cut) }
            guard let start = request.rangeStart else { return FaultResponse.serve(content, to: request) }
            let part = Array(
                "--BOUND\r\nContent-Range: bytes \(start)-\(content.count - 1)/\(content.count)\r\n\r\n".utf8)
            let body = part + content[start...] + Array("\r\n--BOUND--\r\n".utf8)
            return FaultResponse(
                status: 206,
                headers: [
                    ("Content-Type", "multipart/byteranges; boundary=BOUND"), ("Content-Length", "\(body.count)"),
                    ("ETag", "\"v1\""),
                ],
                body: body)
        }
        expectOrigin(f, outcome)
        #expect(requests.last.map { !$0.hasRange } == true)
    }
}
