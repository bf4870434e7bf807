internal import DocSyncDownload
internal import DocSyncHTTP

extension SyncEngine {
    /// The transport options of feed requests: the archives' options plus the total budget of one feed fetch.
    var feedHTTPOptions: HTTPOptions {
        var options = httpOptions
        options.totalTimeout = max(1, Int(configuration.network.feedTimeout.components.seconds))
        return options
    }
}

extension SyncEngine {
    /// A feed that declares an archive longer than `[install] max_archive_size` is refused before downloading.
    func checkArchiveLength(_ candidate: DocsetCandidate) throws(DownloadError) {
        let limit = configuration.install.maxArchiveSize
        guard limit > 0, let length = candidate.length, length > limit else { return }
        throw DownloadError(
            .tooLarge, url: candidate.archives.first,
            reason: "the feed gives the archive's length as \(length) bytes, above the limit of \(limit) bytes",
            isTransient: false)
    }

    /// A failure's message, with the configuration key that bounds it when there is one.
    func describe(_ error: any Error) -> String {
        guard let error = error as? DownloadError else { return UserText.describe(error) }
        let hint = configuration.hint(for: error)
        return UserText.describe(error) + (hint.map { " (\($0))" } ?? "")
    }
}

extension SyncEngine {
    /// An archive that came (partly) over plain http and that no checksum from the feed vouches for: installed, but
    /// reported, since anyone on the path could have changed it.
    /// One `mirror-fault` event per mirror the download excluded (on success, or in the error it threw).
    static func alternateFaultEvents(_ name: String, _ faults: [AlternateFault]) -> [SyncEvent] {
        faults.map {
            .alternateFault(name: name, url: $0.url, reason: $0.reason.description, message: $0.message)
        }
    }

    static func plainHTTPWarning(_ candidate: DocsetCandidate, _ result: DownloadResult) -> SyncEvent? {
        guard result.overPlainHTTP, candidate.sha256 == nil else { return nil }
        return .warning(
            name: candidate.name,
            message: "installed over plain http without a checksum (https failed or was not tried: \(result.url)); "
                + "set [network] require_https = true to refuse plain http")
    }
}
