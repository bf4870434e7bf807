internal import DocSyncDownload
internal import DocSyncInstall
import Foundation

extension SyncEngine {
    /// Downloads and installs at once: the installer extracts from the partial file as it grows (never past the
    /// durable commit) and publishes only after the download is complete and verified and the archive's end was read
    /// cleanly. A truncated partial (the server's bytes changed) restarts the extraction from byte 0 into a fresh
    /// staging tree; a failure on either side stops the other and leaves the installed version as it was.
    func streamAndInstall(
        key: String, archive: String, candidate: DocsetCandidate, request: InstallRequest, limiter: HostLimiter,
        emit: @escaping @Sendable (SyncEvent) -> Void
    ) async throws -> InstallRecord {
        let name = candidate.name
        let source = GrowingFileSource(
            partPath: "\(configuration.staging)/\(StagingName.forKey(key)).part", finalPath: archive
        ) { bytes, total in
            emit(.progress(DocsetProgress(name: name, phase: .installing, bytes: bytes, total: total, rate: 0)))
        }
        let downloadRequest = DownloadRequest(
            key: key, alternates: candidate.archives, destination: archive, expectedSHA256: candidate.sha256,
            committed: { source.commit($0) })
        let downloader = self.downloader(for: candidate)
        let installer = self.installer
        let host = HostLimiter.host(of: candidate.archives[0])

        return try await withThrowingTaskGroup(of: InstallRecord?.self) { group in
            group.addTask {
                await limiter.acquire(host)
                do {
                    let result = try await downloader.download(downloadRequest) { progress in
                        emit(
                            .progress(
                                DocsetProgress(
                                    name: name, phase: .downloading, bytes: progress.bytes, total: progress.total,
                                    rate: progress.rate)))
                    }
                    SyncEngine.alternateFaultEvents(name, result.alternateFaults).forEach(emit)
                    if let warning = SyncEngine.plainHTTPWarning(candidate, result) { emit(warning) }
                    TransferTally.record(result)
                    source.finish(length: result.bytes, sourceURL: result.url, sha256: result.sha256)
                    await limiter.release(host)
                } catch {
                    await limiter.release(host)
                    source.fail("\(error)")
                    throw error
                }
                return nil
            }
            group.addTask {
                while true {
                    do {
                        return try await installer.install(source: source, as: request)
                    } catch  where source.restartPending {
                        source.rewind()  // the partial was truncated: extract the new bytes from byte 0
                    }
                }
            }
            var installed: InstallRecord?
            var downloadError: (any Error)?
            var installError: (any Error)?
            while let result = await group.nextResult() {
                switch result {
                case .success(let value): if let value { installed = value }
                case .failure(let error):
                    if error is DownloadError {
                        downloadError = downloadError ?? error
                    } else {
                        installError = installError ?? error
                    }
                    // Either side failing stops the other: cancel the transfer, wake a blocked reader.
                    source.cancel()
                    group.cancelAll()
                }
            }
            // Published means verified (the installer publishes only after the download's verified end): report
            // what is on disk, never "failed" for a version that is in place.
            if let installed { return installed }
            // The side that failed first is the cause; the other only stopped because of it.
            if case .downloadFailed = source.stopReason, let downloadError { throw downloadError }
            if let installError { throw installError }
            throw downloadError ?? CancellationError()
        }
    }
}
