import DocSyncDownload
import DocSyncSupport
import Foundation
import Synchronization
import TestSupport
import Testing

/// The hand-over from the first connection to segments (speed): what the first connection made durable
/// stays in the file as the first segment's written extent; no segment asks for those bytes again.
@Suite(.timeLimit(.minutes(10))) struct SegmentHandOverTests {
    /// 8 MiB/s: the first connection's quarter second (about 2 MiB) is all kept. 48 MiB/s: it made more durable than
    /// the first segment (2 MiB here), so the prefix is kept up to the last chunk checkpoint within that segment.
    @Test(arguments: [8 << 20, 48 << 20])
    func theFirstConnectionsDurableBytesAreNotFetchedAgain(rate: Int) async throws {
        let size = 16 << 20
        let f = try DownloadFixture(size: size, seed: 51)
        defer { f.remove() }
        let content = f.content
        let server = try FaultServer { request, _ in FaultResponse.serveRanges(content, to: request).throttled(to: rate) }
        defer { server.stop() }
        var configuration = f.segmentedConfiguration()
        configuration.segments.singleConnectionAbove = Double(1 << 40)  // measure for the whole quarter second
        let downloader = Downloader(configuration: configuration)
        let result = try await downloader.download(f.request([server.url()], sha256: f.sha256))
        #expect(f.outputSHA256 == f.sha256)
        #expect(result.bytes == Int64(size))

        let requests = server.requests
        let closed = requests.compactMap { request -> (Int64, Int64)? in
            guard let range = request.byteRange, let last = range.1 else { return nil }
            return (Int64(range.0), Int64(last))
        }
        #expect(requests.count > closed.count, "the first request asked for the whole file: \(requests)")
        #expect(closed.count >= 2, "the download split: \(closed)")
        // The first segment continues above what the first connection made durable (less the 64 KiB overlap that
        // is compared, never written); before, it started again at byte 0.
        let lowest = closed.map(\.0).min() ?? 0
        #expect(lowest > 0, "a segment asked for byte 0 again: \(closed)")
    }
}
