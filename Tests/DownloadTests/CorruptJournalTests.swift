import DocSyncSupport
import Foundation
import TestSupport
import Testing

@testable import DocSyncDownload

/// Issue 11: a journal recording an absurd length (2^62 bytes, asked of the free-space check on every run) is
/// corrupt and discarded like any bad journal; the download then completes.
@Suite struct CorruptJournalTests {
    @Test(arguments: [Int64(1) << 62, Int64(3 << 20)])
    func aJournalWithAnImpossibleLengthIsDiscarded(_ length: Int64) async throws {
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
        request.expectedLength = Int64(content.count)  // the feed's length
        let result = try await Downloader(configuration: f.configuration()).download(request)
        #expect(result.sha256 == f.sha256)
        #expect(Journal(decoding: journal.encoded()) == (length > Journal.maxLength ? nil : journal))
    }
}
