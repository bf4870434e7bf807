import DocSyncDownload
import DocSyncHTTP
import Foundation
import TestSupport

/// A `DownloadFixture` whose downloader splits: 1 MiB chunks, 2 MiB minimum segments, `connections` transfers.
extension DownloadFixture {
    func segmentedConfiguration(
        connections: Int = 4, perHost: Int = 4, transport: HTTPTransport = .curl, maxAttempts: Int = 8,
        maxRestarts: Int = 5
    ) -> DownloadConfiguration {
        var configuration = configuration(maxAttempts: maxAttempts, maxRestarts: maxRestarts)
        configuration.transport = transport
        configuration.segments = SegmentOptions(
            connections: connections, perHost: perHost, minimumSegment: 2 << 20, singleConnectionAbove: nil)
        return configuration
    }

    func segmentedDownload(
        _ alternates: [String], sha256: String? = nil, connections: Int = 4, maxAttempts: Int = 8, maxRestarts: Int = 5
    ) async -> Result<DownloadResult, DownloadError> {
        let downloader = Downloader(
            configuration: segmentedConfiguration(
                connections: connections, maxAttempts: maxAttempts, maxRestarts: maxRestarts))
        do throws(DownloadError) {
            return .success(try await downloader.download(request(alternates, sha256: sha256)))
        } catch {
            return .failure(error)
        }
    }
}
