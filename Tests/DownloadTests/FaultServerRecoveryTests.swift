import DocSyncDownload
import DocSyncSupport
import Foundation
import TestSupport
import Testing

/// Hostile servers, continued: stalls, retries, redirects, changed bytes, interim responses, fatal answers. Every
/// mode ends in the origin's exact bytes or a clear error with no output file.
@Suite(.timeLimit(.minutes(10))) struct FaultServerRecoveryTests: FaultServerSuite {
    /// Checklist item E49.
    @Test func stallMidBodyResumes() async throws {
        let f = try DownloadFixture()
        defer { f.remove() }
        let content = f.content
        let (outcome, requests) = try await run(f) { request, index in
            var response = FaultResponse.serve(content, to: request)
            if index == 0 { response.stall = (Self.cut, 4) }
            return response
        }
        expectOrigin(f, outcome)
        #expect(requests.count == 2 && requests[1].header("Range") == "bytes=\(Self.asked)-")
    }

    /// Checklist item C29.
    @Test func retryAfterIsHonoured() async throws {
        let f = try DownloadFixture()
        defer { f.remove() }
        let content = f.content
        let start = Date()
        let (outcome, requests) = try await run(f) { request, index in
            index == 0
                ? FaultResponse(status: 503, headers: [("Retry-After", "1")], body: Array("busy".utf8))
                : FaultResponse.serve(content, to: request)
        }
        expectOrigin(f, outcome)
        #expect(requests.count == 2)
        #expect(Date().timeIntervalSince(start) >= 1)
    }

    /// Checklist item G56.
    @Test func signedURLValidForOneRequestIsResolvedAgain() async throws {
        let f = try DownloadFixture()
        defer { f.remove() }
        let content = f.content
        // /file redirects to /signed?sig=N; each signature works once. The second redirect hands out a stale one.
        let (outcome, requests) = try await run(f) { request, index in
            if request.path == "/file" {
                let signature = index == 2 ? 0 : index
                return FaultResponse(status: 302, headers: [("Location", "/signed?sig=\(signature)&x=%7E~")])
            }
            let used = request.path.contains("sig=0&") && index > 1
            if used { return FaultResponse(status: 403, body: Array("expired".utf8)) }
            let response = FaultResponse.serve(content, to: request)
            return index == 1 ? response.closing(after: Self.cut) : response
        }
        expectOrigin(f, outcome)
        #expect(requests.filter { $0.path == "/file" }.count == 3)
        #expect(requests.contains { $0.path == "/signed?sig=0&x=%7E~" })  // G58: Location passed through unchanged
        #expect(requests.last?.header("Range") == "bytes=\(Self.asked)-")  // the partial survived the 403
    }

    /// Checklist item G57.
    @Test func redirectOnResume() async throws {
        let f = try DownloadFixture()
        defer { f.remove() }
        let content = f.content
        let (outcome, requests) = try await run(f) { request, index in
            if index == 0 { return FaultResponse.serve(content, to: request).closing(after: Self.cut) }
            if request.path == "/file" { return FaultResponse(status: 307, headers: [("Location", "/elsewhere/file")]) }
            return FaultResponse.serve(content, to: request)
        }
        expectOrigin(f, outcome)
        #expect(requests.count == 3 && requests[2].header("Range") == "bytes=\(Self.asked)-")
    }

    /// Checklist item F52.
    @Test func ignoresIfRangeAndServesNewBytesAs206() async throws {
        let f = try DownloadFixture()
        defer { f.remove() }
        let old = f.content
        let new = DownloadFixture.randomBytes(old.count, seed: 7)
        let (outcome, requests) = try await run(f) { request, index in
            if index == 0 { return FaultResponse.serve(old, to: request).closing(after: Self.cut) }
            return FaultResponse.serve(new, to: request)  // new bytes, old ETag, as a 206
        }
        if case .failure(let error) = outcome { Issue.record("\(error)") }
        #expect(f.outputSHA256 == SHA256.hash(new).description)  // the overlap caught the splice
        #expect(requests.count == 3 && !requests[2].hasRange, "\(requests)")
    }

    /// Checklist item F51.
    @Test func sameETagNewBytesBeyondTheOverlapAreCaughtByTheDigest() async throws {
        let f = try DownloadFixture()
        defer { f.remove() }
        let old = f.content
        var new = old
        for i in stride(from: Self.cut + 1000, to: new.count, by: 4096) { new[i] ^= 0xFF }
        let changed = new
        let (outcome, requests) = try await run(f, sha256: f.sha256) { request, index in
            let response = FaultResponse.serve(index == 0 ? old : changed, to: request)
            return index == 0 ? response.closing(after: Self.cut) : response
        }
        expectFailure(f, outcome, [.verification])  // spliced → one fresh download → still wrong → fail loudly
        #expect(requests.count == 3 && !requests[2].hasRange)
        #expect(!FileManager.default.fileExists(atPath: f.stagingPath("docset/1.0", "part")))  // A14: staging deleted
        if case .failure(let error) = outcome {
            #expect(error.reason.contains(f.sha256))  // names expected and actual
        }
    }

    /// Checklist item C30.
    @Test func interimResponsesAreSkipped() async throws {
        let f = try DownloadFixture()
        defer { f.remove() }
        let content = f.content
        let (outcome, _) = try await run(f) { request, _ in
            var response = FaultResponse.serve(content, to: request)
            response.preamble = "HTTP/1.1 103 Early Hints\r\nLink: </x>; rel=preload\r\nETag: \"hint\"\r\n\r\n"
            return response
        }
        expectOrigin(f, outcome)
    }

    /// Checklist item I64.
    @Test func rightSizeWrongContentLeavesNoFile() async throws {
        let f = try DownloadFixture()
        defer { f.remove() }
        let other = DownloadFixture.randomBytes(f.content.count, seed: 5)
        let (outcome, requests) = try await run(f, sha256: f.sha256) { request, _ in
            FaultResponse.serve(other, to: request)
        }
        expectFailure(f, outcome, [.verification])  // H63: a fresh download with a wrong digest is fatal
        #expect(requests.count == 1)
        if case .failure(let error) = outcome {
            #expect(error.reason.contains(f.sha256) && error.reason.contains(SHA256.hash(other).description))
        }
    }

    /// Checklist item A12.
    @Test func insufficientSpaceFailsBeforeWriting() async throws {
        let f = try DownloadFixture()
        defer { f.remove() }
        let (outcome, _) = try await run(f) { _, _ in
            FaultResponse(status: 200, headers: [("Content-Length", "\(1 << 50)")], body: [])
        }
        expectFailure(f, outcome, [.insufficientSpace])
    }

    /// Checklist item C28.
    @Test func notFoundOnEveryMirrorIsFatal() async throws {
        let f = try DownloadFixture()
        defer { f.remove() }
        let (outcome, requests) = try await run(f) { _, _ in FaultResponse(status: 404, body: Array("no".utf8)) }
        expectFailure(f, outcome, [.http])
        #expect(requests.count == 1)
        if case .failure(let error) = outcome { #expect(error.status == 404 && !error.isTransient) }
    }

    /// Checklist item G59.
    @Test func redirectLoopEndsWithAClearError() async throws {
        let f = try DownloadFixture()
        defer { f.remove() }
        let (outcome, requests) = try await run(f) { request, _ in
            FaultResponse(status: 302, headers: [("Location", request.path == "/file" ? "/loop" : "/file")])
        }
        expectFailure(f, outcome, [.transport])
        if case .failure(let error) = outcome { #expect(!error.isTransient) }
        #expect(requests.count == 11)  // the first request and at most 10 redirects, once
    }
}
