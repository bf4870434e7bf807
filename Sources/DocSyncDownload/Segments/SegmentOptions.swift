/// How a download may be split over several connections and mirrors.
package struct SegmentOptions: Sendable, Equatable {
    /// Transfers at once per download; 1 (the library default) keeps the single-connection path.
    package var connections: Int
    /// At most this many of one download's transfers to one host (`[network] per_host`).
    package var perHost: Int
    /// The smallest segment worth a connection; a file is split only when it is at least twice this long.
    package var minimumSegment: Int64
    /// Bytes per second above which one connection is not the bottleneck: when the first response delivers its
    /// first `probeBytes` at least this fast (and within a quarter second), the download stays on that connection
    /// (whose hash and write pipeline is the faster path then). Nil: always split when it is safe.
    package var singleConnectionAbove: Double?
    /// Body bytes of the first response that measure its rate.
    package var probeBytes: Int

    /// `connections` transfers, `perHost` per host, segments of at least `minimumSegment` bytes (16 MiB); links
    /// faster than `singleConnectionAbove` (64 MiB/s) per connection stay on one.
    package init(
        connections: Int = 1, perHost: Int = 4, minimumSegment: Int64 = 16 << 20,
        singleConnectionAbove: Double? = Double(64 << 20), probeBytes: Int = 4 << 20
    ) {
        self.connections = connections
        self.perHost = perHost
        self.minimumSegment = minimumSegment
        self.singleConnectionAbove = singleConnectionAbove
        self.probeBytes = probeBytes
    }
}
