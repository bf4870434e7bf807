import DocSyncSupport

/// What one `Downloader.download` works on, whichever path runs it: the configuration, the request, its staging
/// key, the expected digest, the staging file and the progress meter. Made once per download and handed to the
/// single-connection path (`DownloadSession`) and the segmented one (`SegmentedDownload`) alike.
struct DownloadJob {
    let configuration: DownloadConfiguration
    let request: DownloadRequest
    let key: String
    let expected: SHA256.Digest?
    let staging: StagingFile
    let meter: ProgressMeter
}

/// A path that runs a `DownloadJob`: its parts read as the runner's own.
protocol DownloadJobRunner {
    var job: DownloadJob { get }
}

extension DownloadJobRunner {
    var configuration: DownloadConfiguration { job.configuration }
    var request: DownloadRequest { job.request }
    var key: String { job.key }
    var expected: SHA256.Digest? { job.expected }
    var staging: StagingFile { job.staging }
    var meter: ProgressMeter { job.meter }
}
