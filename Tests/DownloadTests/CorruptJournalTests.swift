import DocSyncSupport
import Foundation
import TestSupport
import Testing

@testable import DocSyncDownload

/// A journal recording an absurd length (2^62 bytes, asked of the free-space check on every run) is
/// corrupt and discarded like any bad journal; the download then completes.
@Suite(.timeLimit(.minutes(10))) struct CorruptJournalTests {
    /// (journal length, the feed's length): beyond 1 PiB is corrupt; another length than the feed's is stale; a huge
    /// length without a feed length is bounded by the server's answer, never asked of the free-space check alone.
    @Test(arguments: [
        (Int64(1) << 62, Int64(1 << 20)), (Int64(3 << 20), Int64(1 << 20)), (Int64(1) << 40, nil),
    ] as [(Int64, Int64?)])
    func aJournalWithAnImpossibleLengthIsDiscarded(_ length: Int64, _ feedLength: Int64?) async throws {
        let f = try DownloadFixture(size: 1 << 20)
        defer { f.remove() }
        let content = f.content
        let server = try FaultServer { request, _ in FaultResponse.serve(content, to: request) }
        defer { server.stop() }
        try FileManager.default.createDirectory(atPath: f.stagingDirectory, withIntermediateDirectories: true)
        var journal = Journal.empty(key: "docset/1.0", chunkSize: 1 << 20)
        journal.length = length
        try Data(journal.encoded()).write(to: URL(fileURLWithPath: f.stagingPath("docset/1.0", "journal")))
        try Data().write(to: URL(fileURLWithPath: f.stagingPath("docset/1.0", "part")))
        var request = f.request([server.url()], sha256: f.sha256)
        request.expectedLength = feedLength
        let result = try await Downloader(configuration: f.configuration()).download(request)
        #expect(result.sha256 == f.sha256)
        #expect(Journal(decoding: journal.encoded()) == (length > Journal.maxLength ? nil : journal))
    }
}
