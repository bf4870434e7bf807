package import DocSyncDownload
internal import DocSyncHTTP

/// How far a download has got (bytes, total when known, rate): what `docsync fetch` draws its progress line from.
package typealias DownloadProgress = DocSyncDownload.DownloadProgress

/// One resumable, verified download outside a sync (`docsync fetch`), under the archive policy a sync applies
/// (`[network]` options, retries, `[install] max_archive_size`, HTTPS-First or `require_https`): one
/// implementation, so the command and the engine cannot drift.
package struct FileFetch: Sendable {
    /// The URL, then the mirrors serving the same file, tried in that order.
    package var urls: [String]
    /// Where the finished file goes (absolute); it appears only complete and verified.
    package var destination: String
    /// The folder of the partial file and its journal.
    package var staging: String
    /// The expected SHA-256 (64 hex digits), when known.
    package var sha256: String?
    /// A PEM file of certificate authorities to trust instead of the configuration's.
    package var caFile: String?
    /// Transfers at once (a large file is fetched in verified segments).
    package var connections: Int

    /// Describes a download of `urls` into `destination`.
    package init(
        urls: [String], destination: String, staging: String, sha256: String? = nil, caFile: String? = nil,
        connections: Int = 4
    ) {
        self.urls = urls
        self.destination = destination
        self.staging = staging
        self.sha256 = sha256
        self.caFile = caFile
        self.connections = connections
    }

    /// A mirror left out of a download, and why: `url` as given (printers redact credentials), `reason` a stable
    /// snake_case code (`html_page`, `different_file`, …), `message` one line without the URL.
    package typealias MirrorFault = AlternateFault

    /// What a finished download did: the URL that served it, its length and SHA-256, the bytes resumed from an
    /// earlier run, requests made, wall time, the finished file, plain http, the mirrors excluded on the way.
    package typealias Outcome = DownloadResult

    /// Why a download failed.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        /// What happened, naming the URL.
        package var description: String
        /// The file is larger than the size limit.
        package var isTooLarge: Bool
        /// The staging file system has too little free space.
        package var isInsufficientSpace: Bool
        /// The configuration key that bounds the failure, when there is one.
        package var configurationHint: String?
        /// The mirrors excluded before it failed.
        package var mirrorFaults: [MirrorFault]
        /// The failure's class, for an exit status.
        package var stageClass: StageErrorClass?
    }

    /// Downloads under `configuration`'s archive policy, reporting progress as it goes.
    package func run(
        _ configuration: DocSyncConfiguration, progress: @escaping @Sendable (DownloadProgress) -> Void
    ) async throws(Failure) -> Outcome {
        var http = configuration.httpOptions
        if let caFile { http.caFile = caFile }
        let download = configuration.archiveDownload(
            staging: staging, http: http, connections: connections, perHost: connections)
        let request = DownloadRequest(
            key: "", alternates: urls, destination: destination, expectedSHA256: sha256?.lowercased())
        let result: Outcome
        do {
            result = try await Downloader(configuration: download).download(request, progress: progress)
        } catch {
            throw Failure(
                description: error.description, isTooLarge: error.kind == .tooLarge,
                isInsufficientSpace: error.kind == .insufficientSpace,
                configurationHint: configuration.hint(for: error),
                mirrorFaults: error.alternateFaults, stageClass: StageErrorClass(error))
        }
        return result
    }
}
