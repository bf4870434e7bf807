/// What the journal vouches for, as the policies see it.
public struct ResumeState: Sendable, Equatable {
    /// P: bytes durably committed to the staging file.
    public var committed: Int64
    /// L: the complete length recorded at the first response, when known.
    public var length: Int64?
    /// V: the validators recorded at the first response.
    public var validator: Validator
    /// True when a trusted SHA-256 (D) will check the finished file.
    public var digestKnown: Bool
    /// W: bytes re-fetched below P and compared with the file before anything is written.
    public var overlap: Int64

    public init(
        committed: Int64 = 0, length: Int64? = nil, validator: Validator = Validator(), digestKnown: Bool = false,
        overlap: Int64 = 64 * 1024
    ) {
        self.committed = committed
        self.length = length
        self.validator = validator
        self.digestKnown = digestKnown
        self.overlap = overlap
    }
}
