import DocSyncDownload
import TestSupport
import Testing

/// What the fault-server suites share: a download against a scripted `FaultServer`, and the two ways it may end.
protocol FaultServerSuite {}

extension FaultServerSuite {
    /// Where the first response drops the connection; the journal then holds P = cut.
    static var cut: Int { 1_500_000 }
    static var asked: Int { cut - 65_536 }

    /// Runs a download against a server scripted by `handler`; returns the outcome and the requests seen.
    func run(
        _ fixture: DownloadFixture, sha256: String? = nil, maxAttempts: Int = 8, maxRestarts: Int = 5,
        path: String = "file", handler: @escaping FaultServer.Handler
    ) async throws -> (Result<DownloadResult, DownloadError>, [FaultRequest]) {
        let server = try FaultServer(handler: handler)
        defer { server.stop() }
        do {
            let result = try await fixture.download(
                [server.url(path)], sha256: sha256, maxAttempts: maxAttempts, maxRestarts: maxRestarts)
            return (.success(result), server.requests)
        } catch {
            return (.failure(error), server.requests)
        }
    }

    func expectOrigin(_ fixture: DownloadFixture, _ outcome: Result<DownloadResult, DownloadError>) {
        if case .failure(let error) = outcome { Issue.record("download failed: \(error)") }
        #expect(fixture.outputSHA256 == fixture.sha256)
    }

    func expectFailure(
        _ fixture: DownloadFixture, _ outcome: Result<DownloadResult, DownloadError>, _ kinds: Set<DownloadError.Kind>
    ) {
        guard case .failure(let error) = outcome else {
            Issue.record("expected an error, got success")
            return
        }
        #expect(kinds.contains(error.kind), "\(error)")
        #expect(!fixture.outputExists)
    }
}
