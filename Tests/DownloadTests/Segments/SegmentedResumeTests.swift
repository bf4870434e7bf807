import DocSyncDownload
import DocSyncHTTP
import DocSyncSupport
import Foundation
import Synchronization
import TestSupport
import Testing

/// A segmented partial resumed by a later run: durable segments are kept only where their chunks still hash to
/// what arrived; a flipped byte costs that chunk, never the output.
@Suite(.timeLimit(.minutes(10))) struct SegmentedResumeTests {
    @Test func aFlippedByteInADurableChunkIsFetchedAgain() async throws {
        let size = 16 << 20
        let f = try DownloadFixture(size: size, seed: 41)
        defer { f.remove() }
        let content = f.content
        // Run 1: the upper half answers 404, so the download stops with the lower half durable.
        let halfway = try FaultServer { request, _ in
            if let (first, last) = request.byteRange, last != nil, first >= size / 2 {
                return FaultResponse(status: 404, headers: [("Content-Length", "0")])
            }
            return FaultResponse.serveRanges(content, to: request)
        }
        defer { halfway.stop() }
        let first = await f.segmentedDownload([halfway.url()])
        guard case .failure(let error) = first else {
            Issue.record("the first run must stop")
            return
        }
        #expect(error.description.contains("404"), "\(error)")
        #expect(!f.outputExists)
        let part = f.stagingPath("docset/1.0", "part")
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: part))
        try handle.seek(toOffset: 1000)
        let old = try handle.read(upToCount: 1) ?? Data([0])
        try handle.seek(toOffset: 1000)
        try handle.write(contentsOf: Data([old[0] ^ 0xFF]))
        try handle.close()
        // Run 2: the same URL (the staging key), now serving everything.
        let whole = try FaultServer { request, _ in FaultResponse.serveRanges(content, to: request) }
        defer { whole.stop() }
        let downloader = Downloader(configuration: f.segmentedConfiguration())
        var request = f.request([whole.url()])
        request.key = "docset/1.0"
        let result = try await downloader.download(request)
        #expect(f.outputSHA256 == f.sha256)
        #expect(result.resumedFrom > 0 && result.resumedFrom < Int64(size), "\(result.resumedFrom)")
        let asked = whole.requests.compactMap(\.byteRange).filter { $0.1 != nil }
        #expect(asked.contains { $0.0 == 0 }, "chunk 0 was fetched again: \(asked)")
        #expect(whole.requests.allSatisfy { $0.byteRange?.1 != nil }, "no fresh GET: the journal was kept")
    }
}
