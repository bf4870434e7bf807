import DocSyncSupport

/// The durable record of a partial download: what `<key>.part` holds and how to continue it.
///
/// Binary layout (little endian): magic `DSJ`, version byte, fields, then the SHA-256 of everything before it,
/// so a torn or flipped journal is detected and the partial discarded, never adopted.
struct Journal: Sendable, Equatable {
    static let version: UInt8 = 1
    /// No archive docsync fetches is anywhere near this (1 PiB): a journal recording more is corrupt.
    static let maxLength: Int64 = 1 << 50

    /// A chunk boundary: the SHA-256 state of the whole prefix up to the end of the chunk.
    struct Checkpoint: Sendable, Equatable {
        var offset: Int64
        var state: [UInt8]
    }

    var key: String
    /// The URL the recorded representation came from (informational: identity is the key plus L and V).
    var url: String
    /// L, when known.
    var length: Int64?
    var validator: Validator
    /// P: bytes durably in the staging file.
    var committed: Int64
    var chunkSize: Int64
    /// The whole-file SHA-256 state at P.
    var hashState: [UInt8]
    /// One checkpoint per full chunk below P, in order.
    var checkpoints: [Checkpoint]

    static func empty(key: String, chunkSize: Int64) -> Journal {
        Journal(
            key: key, url: "", length: nil, validator: Validator(), committed: 0, chunkSize: chunkSize,
            hashState: SHA256().savedState, checkpoints: [])
    }

    func encoded() -> [UInt8] {
        var out = JournalHeader(
            version: Self.version, key: key, url: url, length: length ?? -1, validator: validator
        ).writer()
        out.int64(committed)
        out.int64(chunkSize)
        out.blob(hashState)
        out.int64(Int64(checkpoints.count))
        for checkpoint in checkpoints {
            out.int64(checkpoint.offset)
            out.blob(checkpoint.state)
        }
        return JournalHeader.sealed(out)
    }

    /// Decodes and checks a journal; nil when it is torn, corrupt, from another version or inconsistent.
    init?(decoding data: [UInt8]) {
        guard let (header, body) = JournalHeader.open(data, version: Self.version) else { return nil }
        var reader = body
        guard let committed = reader.int64(), let chunkSize = reader.int64(), let hashState = reader.blob(),
            let count = reader.int64(), count >= 0, count <= 1 << 20
        else { return nil }
        var checkpoints: [Checkpoint] = []
        for _ in 0..<count {
            guard let offset = reader.int64(), let state = reader.blob() else { return nil }
            checkpoints.append(Checkpoint(offset: offset, state: state))
        }
        guard reader.atEnd else { return nil }
        self.init(
            key: header.key, url: header.url, length: header.length < 0 ? nil : header.length,
            validator: header.validator, committed: committed, chunkSize: chunkSize, hashState: hashState,
            checkpoints: checkpoints)
        guard isConsistent else { return nil }
    }

    init(
        key: String, url: String, length: Int64?, validator: Validator, committed: Int64, chunkSize: Int64,
        hashState: [UInt8], checkpoints: [Checkpoint]
    ) {
        self.key = key
        self.url = url
        self.length = length
        self.validator = validator
        self.committed = committed
        self.chunkSize = chunkSize
        self.hashState = hashState
        self.checkpoints = checkpoints
    }

    /// Checkpoints fall exactly on chunk boundaries below P; P ≤ L; states have the right size.
    private var isConsistent: Bool {
        guard chunkSize > 0, committed >= 0, hashState.count == SHA256.stateSize else { return false }
        if let length, committed > length || length > Self.maxLength { return false }
        if committed > Self.maxLength || chunkSize > Self.maxLength { return false }
        guard Int64(checkpoints.count) == committed / chunkSize else { return false }
        for (index, checkpoint) in checkpoints.enumerated() {
            guard checkpoint.offset == Int64(index + 1) * chunkSize, checkpoint.state.count == SHA256.stateSize
            else { return false }
        }
        return true
    }
}
