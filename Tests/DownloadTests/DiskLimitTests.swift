import DocSyncDownload
import DocSyncSupport
import Foundation
import Synchronization
import TestSupport
import Testing

/// A body longer than `maxLength` (declared or not) and a file system running out of room while the body arrives:
/// each ends in a clear error instead of a full disk.
@Suite(.timeLimit(.minutes(10))) struct DiskLimitTests {
    static let limit: Int64 = 1 << 20

    private func download(
        _ f: DownloadFixture, _ url: String, expectedLength: Int64? = nil,
        adjust: (inout DownloadConfiguration) -> Void = { _ in }
    ) async -> Result<DownloadResult, DownloadError> {
        var configuration = f.configuration(maxAttempts: 2)
        configuration.maxLength = Self.limit
        adjust(&configuration)
        var request = f.request([url], sha256: f.sha256)
        request.expectedLength = expectedLength
        do {
            return .success(try await Downloader(configuration: configuration).download(request))
        } catch {
            return .failure(error)
        }
    }

    private func stagedBytes(_ f: DownloadFixture) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: f.stagingPath("docset/1.0", "part"))[.size] as? Int) ?? 0
    }

    /// Chunked, no Content-Length, no feed length: it used to be written until the file system was full.
    @Test func aBodyWithoutLengthIsCutOffAtTheLimit() async throws {
        let f = try DownloadFixture(size: 4 << 20)
        defer { f.remove() }
        let content = f.content
        let server = try FaultServer { _, _ in
            var response = FaultResponse(status: 200, headers: [("Transfer-Encoding", "chunked")], body: content)
            response.chunked = true
            return response
        }
        defer { server.stop() }
        let outcome = await download(f, server.url())
        guard case .failure(let error) = outcome else {
            Issue.record("a 4 MiB body passed a 1 MiB limit")
            return
        }
        #expect(error.kind == .tooLarge && !error.isTransient, "\(error)")
        #expect(error.reason.contains("\(Self.limit)"), "\(error)")
        #expect(!f.outputExists)
        #expect(stagedBytes(f) <= Int(Self.limit), "nothing past the limit is kept")
        #expect(server.requests.count == 1, "not retried")
    }

    @Test func aDeclaredLengthAboveTheLimitIsRefusedBeforeWriting() async throws {
        let f = try DownloadFixture(size: 3 << 20)
        defer { f.remove() }
        let content = f.content
        let server = try FaultServer { request, _ in FaultResponse.serve(content, to: request) }
        defer { server.stop() }
        let outcome = await download(f, server.url())
        guard case .failure(let error) = outcome else {
            Issue.record("a 3 MiB Content-Length passed a 1 MiB limit")
            return
        }
        #expect(error.kind == .tooLarge && error.reason.contains("declares \(content.count) bytes"), "\(error)")
        #expect(stagedBytes(f) == 0, "no byte written")
    }

    @Test func aFeedLengthAboveTheLimitSendsNoRequest() async throws {
        let f = try DownloadFixture(size: 64 << 10)
        defer { f.remove() }
        let server = try FaultServer { request, _ in FaultResponse(status: 500) }
        defer { server.stop() }
        let outcome = await download(f, server.url(), expectedLength: 5 << 30)
        guard case .failure(let error) = outcome else {
            Issue.record("expected a refusal")
            return
        }
        #expect(error.kind == .tooLarge, "\(error)")
        #expect(server.requests.isEmpty)
    }

    /// The free space drops below the reserve after the first chunk: the download stops at the next check (one per
    /// chunk), keeps what it committed and says which reserve was hit.
    @Test func theFreeSpaceReserveIsCheckedWhileWriting() async throws {
        let f = try DownloadFixture(size: 6 << 20)
        defer { f.remove() }
        let content = f.content
        let server = try FaultServer { request, _ in FaultResponse.serve(content, to: request) }
        defer { server.stop() }
        let calls = Atomic<Int>(0)
        let reserve: Int64 = 512 << 20
        let outcome = await download(f, server.url()) { configuration in
            configuration.maxLength = nil
            configuration.minFreeSpace = reserve
            configuration.freeSpace = { _ in
                // Plenty before the request and when the response is accepted; then the disk is nearly full.
                calls.add(1, ordering: .relaxed).newValue <= 2 ? 100 << 30 : reserve - 1
            }
        }
        guard case .failure(let error) = outcome else {
            Issue.record("the download ignored the reserve while writing")
            return
        }
        #expect(error.kind == .insufficientSpace && error.isTransient, "\(error)")
        #expect(error.reason.contains("below the reserve of \(reserve)"), "\(error)")
        #expect(calls.load(ordering: .relaxed) >= 3, "checked after the response was accepted")
        let journal = PartialDownload.list(in: f.stagingDirectory).first
        #expect((journal?.bytes ?? 0) < Int64(content.count), "stopped before the end")
        #expect(!f.outputExists)
    }
}
