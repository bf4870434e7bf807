import DocSyncHTTP
import DocSyncSupport

/// Settings shared by every download of one `Downloader`.
package struct DownloadConfiguration: Sendable {
    /// Where `<name>.part`, `<name>.journal` and `<name>.lock` live; best on the destination's file system.
    package var stagingDirectory: String
    package var http: HTTPOptions
    package var retry: RetryPolicy
    /// Bytes per checkpoint: the journal is committed (fdatasync + journal rename) every `chunkSize` bytes.
    package var chunkSize: Int64
    /// Seconds between commits on a slow link, so a kill loses at most this long's worth of bytes (or a chunk).
    package var commitInterval: Double
    /// W: bytes re-fetched below the committed count and compared before a resume writes anything.
    package var overlap: Int64
    /// Files are archives: a 200 with an HTML page or an empty body is a mirror fault (next mirror), never a file.
    package var rejectsPages = false
    /// Write with `O_DIRECT` where the staging file system supports it: the bytes skip the page cache, so there is
    /// no copy into it and nothing left to write back when a commit syncs. False: always through the page cache.
    package var directIO: Bool
    /// Largest file accepted, in bytes (nil: no limit): a longer declared length is refused before any byte is
    /// written, and a body without one is cut off when it passes the limit.
    package var maxLength: Int64?
    /// Bytes that must stay free in the staging file system: checked before each request and again at every
    /// `chunkSize` bytes written, so a body of unknown length cannot fill the disk.
    package var minFreeSpace: Int64 = 0
    /// How plain-http mirror URLs are tried (default: as given; the sync uses HTTPS-First).
    package var schemePolicy: SchemePolicy = .asGiven
    /// Upgrade local hosts too under `httpsFirst` (they are left in plain http otherwise, as browsers do).
    package var upgradeLocal = false
    /// Free bytes at a path (a seam for tests; `statvfs` by default).
    package var freeSpace: @Sendable (String) throws(SystemError) -> Int64 = { path throws(SystemError) in
        try LinuxFS.freeSpace(at: path).bytes
    }
    /// How requests reach the network: libcurl unless a caller (a test) passes another transport.
    package var transport: HTTPTransport
    /// Segmented downloads: transfers at once per download (1 disables), their spread over hosts and the smallest
    /// segment worth a connection. See `SegmentOptions`.
    package var segments: SegmentOptions

    package init(
        stagingDirectory: String, http: HTTPOptions = HTTPOptions(), retry: RetryPolicy = RetryPolicy(),
        chunkSize: Int64 = 8 << 20, commitInterval: Double = 0.25, overlap: Int64 = 64 << 10, directIO: Bool = true,
        transport: HTTPTransport = .curl, segments: SegmentOptions = SegmentOptions()
    ) {
        self.transport = transport
        self.segments = segments
        self.stagingDirectory = stagingDirectory
        self.http = http
        self.retry = retry
        self.chunkSize = chunkSize
        self.commitInterval = commitInterval
        self.overlap = overlap
        self.directIO = directIO
    }
}

/// One file to fetch.
package struct DownloadRequest: Sendable {
    /// Stable identity of the resource (docset identifier + version); empty means "the first mirror URL".
    /// Never a redirect target: signed URLs change on every request.
    package var key: String
    /// Alternate URLs in feed order; the first is tried first.
    package var alternates: [String]
    /// Output path: it exists only once the file is complete and verified.
    package var destination: String
    /// Trusted SHA-256 (hex) the finished file must have.
    package var expectedSHA256: String?
    /// Length the finished file must have.
    package var expectedLength: Int64?
    /// Called on the transfer thread after every durable commit with the committed byte count. A consumer
    /// reading the partial file while it grows must never read past this count (it may go back to 0 on a restart).
    package var committed: (@Sendable (Int64) -> Void)?

    package init(
        key: String, alternates: [String], destination: String, expectedSHA256: String? = nil,
        expectedLength: Int64? = nil, committed: (@Sendable (Int64) -> Void)? = nil
    ) {
        self.key = key
        self.alternates = alternates
        self.destination = destination
        self.expectedSHA256 = expectedSHA256
        self.expectedLength = expectedLength
        self.committed = committed
    }
}

/// Progress of a download, reported a few times a second.
package struct DownloadProgress: Sendable, Equatable {
    /// Bytes of the file on disk so far.
    package var bytes: Int64
    /// The file's length, when known.
    package var total: Int64?
    /// Receive rate of this run, bytes per second.
    package var rate: Double

    package init(bytes: Int64, total: Int64?, rate: Double) {
        self.bytes = bytes
        self.total = total
        self.rate = rate
    }
}

/// A finished, verified download.
package struct DownloadResult: Sendable, Equatable {
    /// The mirror URL whose bytes finished the file.
    package var url: String
    package var bytes: Int64
    /// Lowercase hex SHA-256 of the file.
    package var sha256: String
    /// Bytes the journal vouched for when this run started.
    package var resumedFrom: Int64
    /// HTTP requests made.
    package var attempts: Int
    package var seconds: Double
    /// Where the file is (the request's destination).
    package var path: String
    /// Some of its bytes came over plain http (no TLS): only a trusted checksum vouches for them.
    package var overPlainHTTP: Bool
    /// Each mirror excluded from this download and why (a segmented download never splices them in).
    package var alternateFaults: [AlternateFault]

    package init(
        url: String, bytes: Int64, sha256: String, resumedFrom: Int64, attempts: Int, seconds: Double, path: String,
        overPlainHTTP: Bool = false, alternateFaults: [AlternateFault] = []
    ) {
        self.overPlainHTTP = overPlainHTTP
        self.alternateFaults = alternateFaults
        self.url = url
        self.bytes = bytes
        self.sha256 = sha256
        self.resumedFrom = resumedFrom
        self.attempts = attempts
        self.seconds = seconds
        self.path = path
    }
}
