import DocSyncSupport

/// The durable record of a segmented download (journal version 2): the identity, every segment's durable extent
/// with the SHA-256 state of its unfinished chunk, and the SHA-256 of every finished chunk. Same framing as
/// `Journal` (magic `DSJ`, version byte, fields, SHA-256 of everything before it), so a version-1 reader rejects it
/// and this reader rejects version 1; `Downloader` routes each to its own path.
struct SegmentJournal: Sendable, Equatable {
    static let version: UInt8 = 2

    struct Extent: Sendable, Equatable {
        var start: Int64
        var end: Int64
        /// Bytes `start..<done` are durable.
        var done: Int64
        /// SHA-256 state of the bytes from the chunk boundary below `done` up to `done`.
        var chunkState: [UInt8]
    }

    var key: String
    /// The mirror whose first response defined the identity.
    var url: String
    var identity: SegmentIdentity
    var chunkSize: Int64
    /// Sorted by start, tiling `0..<length`.
    var extents: [Extent]
    /// SHA-256 of each finished chunk, by chunk index.
    var digests: [Int64: [UInt8]]

    /// Bytes durable in all extents.
    var durableBytes: Int64 { extents.reduce(0) { $0 + $1.done - $1.start } }

    /// The durable prefix from byte 0.
    var contiguous: Int64 { SegmentScheduler.prefix(extents.map { ($0.start, $0.end, $0.done) }) }

    var isComplete: Bool { extents.allSatisfy { $0.done == $0.end } }

    /// True when `data` has this journal's magic and version (whether or not it is intact).
    static func isSegmented(_ data: [UInt8]) -> Bool { JournalHeader.starts(data, version: version) }

    func encoded() -> [UInt8] {
        var out = JournalHeader(
            version: Self.version, key: key, url: url, length: identity.length, validator: identity.validator
        ).writer()
        out.int64(chunkSize)
        out.int64(Int64(extents.count))
        for extent in extents {
            out.int64(extent.start)
            out.int64(extent.end)
            out.int64(extent.done)
            out.blob(extent.chunkState)
        }
        out.int64(Int64(digests.count))
        for (index, digest) in digests.sorted(by: { $0.key < $1.key }) {
            out.int64(index)
            out.blob(digest)
        }
        return JournalHeader.sealed(out)
    }

    /// Decodes and checks a version-2 journal; nil when torn, corrupt, of another version or inconsistent.
    init?(decoding data: [UInt8]) {
        guard let (header, body) = JournalHeader.open(data, version: Self.version) else { return nil }
        var reader = body
        guard let chunkSize = reader.int64(), let count = reader.int64(), count >= 0, count <= 1 << 16
        else { return nil }
        var extents: [Extent] = []
        for _ in 0..<count {
            guard let start = reader.int64(), let end = reader.int64(), let done = reader.int64(),
                let state = reader.blob()
            else { return nil }
            extents.append(Extent(start: start, end: end, done: done, chunkState: state))
        }
        guard let digestCount = reader.int64(), digestCount >= 0, digestCount <= 1 << 20 else { return nil }
        var digests: [Int64: [UInt8]] = [:]
        for _ in 0..<digestCount {
            guard let index = reader.int64(), let digest = reader.blob(), digest.count == 32 else { return nil }
            digests[index] = digest
        }
        guard reader.atEnd else { return nil }
        self.init(
            key: header.key, url: header.url,
            identity: SegmentIdentity(length: header.length, validator: header.validator), chunkSize: chunkSize,
            extents: extents, digests: digests)
        guard isConsistent else { return nil }
    }

    init(
        key: String, url: String, identity: SegmentIdentity, chunkSize: Int64, extents: [Extent],
        digests: [Int64: [UInt8]]
    ) {
        self.key = key
        self.url = url.redactingCredentials  // the journal is informational: no secret kept
        self.identity = identity
        self.chunkSize = chunkSize
        self.extents = extents
        self.digests = digests
    }

    /// Extents tile `0..<length` from chunk boundaries; every finished chunk below a `done` has a digest and no
    /// digest lies outside the durable bytes.
    private var isConsistent: Bool {
        guard chunkSize > 0, identity.length > 0 else { return false }
        var next: Int64 = 0
        var expected = Set<Int64>()
        for extent in extents {
            guard extent.start == next, extent.start % chunkSize == 0, extent.start <= extent.done,
                extent.done <= extent.end, extent.end <= identity.length, extent.chunkState.count == SHA256.stateSize
            else { return false }
            next = extent.end
            var chunk = extent.start
            while chunk < extent.done {
                let chunkEnd = min(chunk + chunkSize, extent.end)
                if chunkEnd <= extent.done { expected.insert(chunk / chunkSize) }
                chunk = chunkEnd
            }
        }
        return next == identity.length && Set(digests.keys) == expected
    }
}
