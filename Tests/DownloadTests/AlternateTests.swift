import DocSyncDownload
import DocSyncSupport
import Foundation
import TestSupport
import Testing

/// Mirrors: the next one is tried after repeated faults or a 404, and its bytes pass the same identity checks.
@Suite(.timeLimit(.minutes(10))) struct AlternateTests {
    static let cut = 1_500_000

    @Test func resumesOnTheNextMirrorAfterRepeatedFaults() async throws {
        let f = try DownloadFixture()
        defer { f.remove() }
        let content = f.content
        let first = try FaultServer { request, index in
            index == 0
                ? FaultResponse.serve(content, to: request).closing(after: Self.cut)
                : FaultResponse(status: 503, body: Array("down".utf8))
        }
        defer { first.stop() }
        let second = try FaultServer { request, _ in FaultResponse.serve(content, to: request) }
        defer { second.stop() }
        let result = try await f.download([first.url(), second.url()], sha256: f.sha256)
        #expect(f.outputSHA256 == f.sha256)
        #expect(result.url == second.url())
        #expect(second.requests.first?.header("Range") == "bytes=\(Self.cut - 65_536)-")
    }

    @Test func anotherMirrorsDifferentETagMeansAFreshDownloadThere() async throws {
        let f = try DownloadFixture()
        defer { f.remove() }
        let content = f.content
        let first = try FaultServer { request, _ in
            FaultResponse.serve(content, to: request).closing(after: Self.cut)
        }
        defer { first.stop() }
        let second = try FaultServer { request, _ in
            // Ignores If-Range: a 206 under its own ETag, which must not be spliced onto the first mirror's bytes.
            var withoutIfRange = request
            withoutIfRange.headers.removeAll { $0.lowercased().hasPrefix("if-range:") }
            return FaultResponse.serve(content, to: withoutIfRange, etag: "\"other\"")
        }
        defer { second.stop() }
        let result = try await f.download([first.url(), second.url()])
        #expect(f.outputSHA256 == f.sha256)
        #expect(result.url == second.url())
        #expect(second.requests.count == 2 && second.requests[0].hasRange && !second.requests[1].hasRange)
    }

    @Test func notFoundMovesOnAtOnce() async throws {
        let f = try DownloadFixture(size: 1 << 20)
        defer { f.remove() }
        let content = f.content
        let missing = try FaultServer { _, _ in FaultResponse(status: 404) }
        defer { missing.stop() }
        let good = try FaultServer { request, _ in FaultResponse.serve(content, to: request) }
        defer { good.stop() }
        let result = try await f.download([missing.url(), good.url()])
        #expect(f.outputSHA256 == f.sha256 && result.url == good.url() && result.attempts == 2)
        #expect(missing.requests.count == 1)
    }
}
