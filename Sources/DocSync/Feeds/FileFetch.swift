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

    /// A mirror left out of a download, and why.
    package struct MirrorFault: Sendable, Equatable, CustomStringConvertible {
        /// The mirror's URL as given (printers redact credentials).
        package var url: String
        /// A stable snake_case code (`html_page`, `different_file`, …).
        package var reason: String
        /// One line saying what the mirror did, without the URL.
        package var message: String
        /// `URL: message`.
        package var description: String { "\(url): \(message)" }

        init(_ fault: AlternateFault) {
            url = fault.url
            reason = fault.reason.description
            message = fault.message
        }
    }

    /// What a finished download did.
    package struct Outcome: Sendable, Equatable {
        /// The URL that served the file (a mirror, or the first URL).
        package var url: String
        /// The file's length.
        package var bytes: Int64
        /// The file's SHA-256, 64 lowercase hex digits.
        package var sha256: String
        /// Bytes already on disk from an earlier, interrupted run.
        package var resumedFrom: Int64
        /// Requests made.
        package var attempts: Int
        /// Wall time, in seconds.
        package var seconds: Double
        /// The finished file.
        package var path: String
        /// Served over plain http (HTTPS-First fell back, or was not tried).
        package var overPlainHTTP: Bool
        /// The mirrors excluded on the way.
        package var mirrorFaults: [MirrorFault]
    }

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
        let result: DownloadResult
        do {
            result = try await Downloader(configuration: download).download(request, progress: progress)
        } catch {
            throw Failure(
                description: error.description, isTooLarge: error.kind == .tooLarge,
                isInsufficientSpace: error.kind == .insufficientSpace,
                configurationHint: configuration.hint(for: error),
                mirrorFaults: error.alternateFaults.map(MirrorFault.init), stageClass: StageErrorClass(error))
        }
        return Outcome(
            url: result.url, bytes: result.bytes, sha256: result.sha256, resumedFrom: result.resumedFrom,
            attempts: result.attempts, seconds: result.seconds, path: result.path, overPlainHTTP: result.overPlainHTTP,
            mirrorFaults: result.alternateFaults.map(MirrorFault.init))
    }
}
