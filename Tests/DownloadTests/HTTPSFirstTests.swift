import DocSyncDownload
import DocSyncHTTP
import Foundation
import TestSupport
import Testing

/// HTTPS-First against a real http-only nginx on loopback: the https attempt fails fast (nginx answers a TLS
/// handshake with a plain-text 400), the plain-http URL is tried next, and the result says the bytes came over
/// plain http. `httpsOnly` never falls back.
@Suite(
    .enabled(if: Nginx.isInstalled, "nginx is not installed (scripts/bootstrap installs it)"),
    .timeLimit(.minutes(10)), .blockingWaits)
struct HTTPSFirstTests {
    private func serve(_ f: DownloadFixture) throws -> Nginx {
        let root = f.directory.appending("www")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try Data(f.content).write(to: URL(fileURLWithPath: root + "/file.bin"))
        return try Nginx(root: root)
    }

    private func download(
        _ f: DownloadFixture, _ url: String, policy: SchemePolicy
    ) async -> Result<DownloadResult, DownloadError> {
        var configuration = f.configuration(maxAttempts: 3)
        configuration.schemePolicy = policy
        configuration.upgradeLocal = true  // loopback is exempt by default, as in browsers
        do {
            return .success(try await Downloader(configuration: configuration).download(f.request([url])))
        } catch {
            return .failure(error)
        }
    }

    @Test func httpsFirstFallsBackToPlainHTTPWhenTLSFails() async throws {
        let f = try DownloadFixture(size: 512 << 10)
        defer { f.remove() }
        let nginx = try serve(f)
        defer { nginx.stop() }
        let outcome = await download(f, nginx.url("file.bin"), policy: .httpsFirst)
        let result = try outcome.get()
        #expect(f.outputSHA256 == f.sha256)
        #expect(result.url == nginx.url("file.bin") && result.overPlainHTTP)
        #expect(result.attempts == 2, "one https attempt, then plain http without retries")
        let log = nginx.accessLog()
        #expect(log.filter { $0.status == 200 }.count == 1, "\(log)")
        #expect(log.first?.status == 400, "nginx saw the TLS handshake first: \(log)")
    }

    @Test func httpsOnlyNeverFallsBack() async throws {
        let f = try DownloadFixture(size: 64 << 10)
        defer { f.remove() }
        let nginx = try serve(f)
        defer { nginx.stop() }
        let outcome = await download(f, nginx.url("file.bin"), policy: .httpsOnly)
        guard case .failure(let error) = outcome else {
            Issue.record("downloaded over plain http")
            return
        }
        #expect(error.url?.hasPrefix("https://") == true, "\(error)")
        #expect(nginx.accessLog().allSatisfy { $0.status != 200 }, "no plain-http request")
        #expect(!f.outputExists)
    }

    @Test func aPlainHTTPDownloadAsGivenIsMarked() async throws {
        let f = try DownloadFixture(size: 64 << 10)
        defer { f.remove() }
        let nginx = try serve(f)
        defer { nginx.stop() }
        let result = try await download(f, nginx.url("file.bin"), policy: .asGiven).get()
        #expect(result.overPlainHTTP && result.attempts == 1)
    }
}
