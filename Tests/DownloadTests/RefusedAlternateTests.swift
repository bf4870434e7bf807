import DocSyncDownload
import DocSyncHTTP
import Foundation
import TestSupport
import Testing

/// A refused or unresolvable host is left for the next mirror at once (no back-off, no second try first) and is
/// tried again only after every other mirror refused too.
@Suite(.timeLimit(.minutes(10))) struct RefusedAlternateTests {
    @Test func aRefusedMirrorFailsOverAtOnce() async throws {
        let f = try DownloadFixture(size: 256 << 10, seed: 52)
        defer { f.remove() }
        let content = f.content
        let origin = try FaultServer { request, _ in FaultResponse.serveRanges(content, to: request) }
        defer { origin.stop() }
        let refused = "http://127.0.0.1:\(try Loopback.freePort())/file.bin"
        var configuration = f.configuration()
        configuration.retry.baseDelay = 600  // a back-off before the next mirror would exceed the time limit
        configuration.retry.maxDelay = 600
        let result = try await Downloader(configuration: configuration).download(
            f.request([refused, origin.url()], sha256: f.sha256))
        #expect(f.outputSHA256 == f.sha256)
        #expect(result.attempts == 2, "one refused connection, then the next mirror: \(result)")
        #expect(result.alternateFaults.map(\.url) == [refused])
        #expect(result.alternateFaults.first?.reason == .transport, "\(result.alternateFaults)")
    }

    @Test func whenEveryMirrorRefusesTheDownloadStillEndsWithinItsAttempts() async throws {
        let f = try DownloadFixture(size: 1 << 10, seed: 53)
        defer { f.remove() }
        let alternates = try (0..<2).map { _ in "http://127.0.0.1:\(try Loopback.freePort())/file.bin" }
        let configuration = f.configuration(maxAttempts: 4)
        await #expect(throws: DownloadError.self) {
            _ = try await Downloader(configuration: configuration).download(f.request(alternates, sha256: f.sha256))
        }
    }
}
