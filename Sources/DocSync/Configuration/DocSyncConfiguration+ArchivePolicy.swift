package import DocSyncDownload
package import DocSyncHTTP

/// What every archive download enforces, `sync`'s and `docsync fetch`'s alike: one policy, read from the
/// configuration.
extension DocSyncConfiguration {
    /// The download configuration for archives, `sync`'s and `docsync fetch`'s alike (one implementation): staging
    /// folder, transport options, `[network] retries`, `connections` transfers per download (at most `perHost` to
    /// one host), and the archive policy below.
    package func archiveDownload(
        staging: String, http: HTTPOptions, connections: Int, perHost: Int
    ) -> DownloadConfiguration {
        var retry = RetryPolicy()
        retry.maxAttempts = max(1, network.retries)
        var download = DownloadConfiguration(
            stagingDirectory: staging, http: http, retry: retry,
            segments: SegmentOptions(connections: connections, perHost: perHost))
        applyArchivePolicy(to: &download)
        return download
    }

    /// `[install] max_archive_size` (a longer Content-Length is refused, an unknown-length body stopped past it) and
    /// `[network] require_https` (refuse plain http, redirects included) or else HTTPS-First (an `http://` URL is
    /// tried as `https://` first; local hosts stay plain).
    package func applyArchivePolicy(to download: inout DownloadConfiguration) {
        download.maxLength = install.maxArchiveSize > 0 ? install.maxArchiveSize : nil
        download.schemePolicy = network.requireHTTPS ? .httpsOnly : .httpsFirst
        download.http.httpsOnly = network.requireHTTPS
    }

    /// The `[network]` transport options every request uses, `sync`'s and `docsync fetch`'s alike: connect and stall
    /// timeouts, `min_speed`, `rate_limit`, `proxy`, `ca_file`, `require_https`, `allow_private_redirects`,
    /// `allow_link_local`.
    package var httpOptions: HTTPOptions {
        var options = HTTPOptions()
        options.connectTimeout = Int(network.connectTimeout.components.seconds)
        options.lowSpeedLimit = Int(max(1, network.minSpeed))
        options.lowSpeedTime = max(1, Int(network.stallTimeout.components.seconds))
        options.maxReceiveRate = network.rateLimit
        options.proxy = network.proxy
        options.caFile = network.caFile
        options.httpsOnly = network.requireHTTPS
        options.allowPrivateRedirects = network.allowPrivateRedirects
        options.allowLinkLocal = network.allowLinkLocal
        return options
    }

    /// The configuration key that bounds a failed download, when there is one: said after its message.
    package func hint(for error: DownloadError) -> String? {
        switch error.kind {
        case .tooLarge: "[install] max_archive_size"
        case .insufficientSpace: "[install] min_free_space"
        case .transport where error.transportKind == .stall:
            "slower than [network] min_speed for [network] stall_timeout"
        case .transport where network.requireHTTPS, .http where network.requireHTTPS:
            "[network] require_https = true: plain http is never tried"
        default: nil
        }
    }
}
