internal import DocSyncSupport

/// The documented range of every number in a `DocSyncConfiguration`: the configuration file refuses a value outside it
/// (naming the key), and ``SyncEngine/init(configuration:)`` clamps one set through the library into it, so no
/// count, duration or size — `Int.max`, `Int.min`, a negative duration — can trap, hang or overflow later.
extension DocSyncConfiguration {
    /// `[network] concurrency` and `per_host`.
    package static let concurrencyRange = 1...64
    /// `[network] connections`.
    package static let connectionsRange = 1...16
    /// `[network] retries`.
    package static let retriesRange = 0...1000
    /// `[mirror] keep`.
    package static let mirrorKeepRange = 1...100

    /// This configuration with every number clamped into its documented range (durations 0...3650 days, sizes
    /// 0...1 PiB; `post_install_timeout` at least one second).
    package var bounded: DocSyncConfiguration {
        var c = self
        func clamp(_ value: Int, _ range: ClosedRange<Int>) -> Int {
            min(max(value, range.lowerBound), range.upperBound)
        }
        func clamp(_ duration: Duration, minimum: Duration = .zero) -> Duration {
            min(max(duration, minimum), .seconds(ValueSyntax.maximumDurationSeconds))
        }
        func clamp(_ size: Int64) -> Int64 { min(max(size, 0), ValueSyntax.maximumByteSize) }
        c.network.concurrency = clamp(network.concurrency, Self.concurrencyRange)
        c.network.perHost = clamp(network.perHost, Self.concurrencyRange)
        c.network.connections = clamp(network.connections, Self.connectionsRange)
        c.network.retries = clamp(network.retries, Self.retriesRange)
        c.network.connectTimeout = clamp(network.connectTimeout)
        c.network.stallTimeout = clamp(network.stallTimeout)
        c.network.feedTimeout = clamp(network.feedTimeout)
        c.network.minSpeed = clamp(network.minSpeed)
        c.network.rateLimit = clamp(network.rateLimit)
        c.install.gracePeriod = clamp(install.gracePeriod)
        c.install.partialMaxAge = clamp(install.partialMaxAge)
        c.install.maxArchiveSize = clamp(install.maxArchiveSize)
        c.install.minFreeSpace = clamp(install.minFreeSpace)
        c.postInstallTimeout = clamp(postInstallTimeout, minimum: .seconds(1))
        if let mirror {
            c.mirror?.keep = clamp(mirror.keep, Self.mirrorKeepRange)
            c.mirror?.gracePeriod = clamp(mirror.gracePeriod)
        }
        return c
    }
}
