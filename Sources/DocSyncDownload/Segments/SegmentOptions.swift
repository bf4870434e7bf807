/// How a download may be split over several connections and mirrors (issue 15).
public struct SegmentOptions: Sendable, Equatable {
    /// Transfers at once per download; 1 (the library default) keeps the single-connection path.
    public var connections: Int
    /// At most this many of one download's transfers to one host (`[network] per_host`).
    public var perHost: Int
    /// The smallest segment worth a connection; a file is split only when it is at least twice this long.
    public var minimumSegment: Int64

    /// `connections` transfers, `perHost` per host, segments of at least `minimumSegment` bytes (16 MiB).
    public init(connections: Int = 1, perHost: Int = 4, minimumSegment: Int64 = 16 << 20) {
        self.connections = connections
        self.perHost = perHost
        self.minimumSegment = minimumSegment
    }
}
