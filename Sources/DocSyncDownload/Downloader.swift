import DocSyncHTTP
import DocSyncSupport

/// Fetches one file from its mirrors into the staging directory, resuming after any interruption, and moves it to
/// the destination only once it is complete and verified. Many downloads may run at once (one per key).
package struct Downloader: Sendable {
    package let configuration: DownloadConfiguration

    package init(configuration: DownloadConfiguration) { self.configuration = configuration }

    package func download(
        _ request: DownloadRequest, progress: (@Sendable (DownloadProgress) -> Void)? = nil
    ) async throws(DownloadError) -> DownloadResult {
        guard !request.alternates.isEmpty else {
            throw DownloadError(.invalidRequest, reason: "no URL to download from", isTransient: false)
        }
        var expected: SHA256.Digest?
        if let hex = request.expectedSHA256 {
            guard let digest = SHA256.Digest(hex: hex) else {
                throw DownloadError(
                    .invalidRequest, reason: "'\(hex)' is not a SHA-256 (64 hex digits)", isTransient: false)
            }
            expected = digest
        }
        guard configuration.chunkSize > 0, configuration.overlap >= 0 else {
            throw DownloadError(.invalidRequest, reason: "chunk size and overlap must be positive", isTransient: false)
        }
        let key = request.key.isEmpty ? request.alternates[0] : request.key
        do throws(LibraryUnavailable) {
            try SHA256.load(for: "downloads")  // libcrypto, loaded on first use: the staging name and every byte
        } catch {
            throw .transport(
                HTTPTransportError(kind: .libraryUnavailable, code: -1, message: error.description, url: key))
        }
        let staging = try StagingFile(
            directory: configuration.stagingDirectory, name: StagingName.forKey(key), directIO: configuration.directIO)
        defer { staging.release() }
        let job = DownloadJob(
            configuration: configuration, request: request, key: key, expected: expected, staging: staging,
            meter: ProgressMeter(callback: progress))
        let segmented = SegmentedDownload(job)
        if case .finished(let result) = try await segmented.resume() { return result }
        let session = DownloadSession(job)
        if configuration.segments.connections > 1 {  // the first response may hand over to the segmented path
            session.splitProbe = SplitProbe(options: configuration.segments, expectedLength: request.expectedLength)
        }
        let first = try await Self.reporting(session) { () async throws(DownloadError) in try await session.run() }
        if let result = first { return result }
        if let (identity, url) = session.handedOver, let mirror = request.alternates.firstIndex(of: url),
            case .finished(var result) = try await segmented.start(identity, mirror: mirror)
        {
            result.alternateFaults = session.faults + result.alternateFaults
            return result
        }
        let single = DownloadSession(job)  // the origin changed and no longer allows a split
        let second = try await Self.reporting(single) { () async throws(DownloadError) in try await single.run() }
        guard let result = second else {
            throw DownloadError(.invalidRequest, reason: "no download path finished", isTransient: false)
        }
        return result
    }

    /// Runs `body`; a failure carries the mirrors `session` left on the way, as a segmented download's does.
    private static func reporting<T>(
        _ session: DownloadSession, _ body: () async throws(DownloadError) -> T
    ) async throws(DownloadError) -> T {
        do {
            return try await body()
        } catch {
            var failure = error
            failure.alternateFaults = session.faults + failure.alternateFaults
            throw failure
        }
    }
}
