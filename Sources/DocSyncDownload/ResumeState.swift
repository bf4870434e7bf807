/// What the journal vouches for, as the policies see it.
package struct ResumeState: Sendable, Equatable {
    /// P: bytes durably committed to the staging file.
    package var committed: Int64
    /// L: the complete length recorded at the first response, when known.
    package var length: Int64?
    /// V: the validators recorded at the first response.
    package var validator: Validator
    /// True when a trusted SHA-256 (D) will check the finished file.
    package var digestKnown: Bool
    /// W: bytes re-fetched below P and compared with the file before anything is written.
    package var overlap: Int64

    package init(
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
