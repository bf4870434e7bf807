/// How to take the body of an accepted response.
package struct WritePlan: Sendable, Equatable {
    /// Offset of the body's first byte in the file.
    package var from: Int64
    /// One past the body's last byte, when declared (Content-Length or Content-Range).
    package var end: Int64?
    /// The complete length of the representation, when known.
    package var total: Int64?
    /// Truncate the staging file (durably) to 0 and forget the old state before writing.
    package var truncateFirst: Bool
    /// The first `overlap` bytes of the body re-send bytes already on disk: compare them, do not write them.
    package var overlap: Int64
    /// Validators to record (for a fresh body) or keep (for a resumed one).
    package var validator: Validator

    package init(
        from: Int64, end: Int64?, total: Int64?, truncateFirst: Bool, overlap: Int64, validator: Validator
    ) {
        self.from = from
        self.end = end
        self.total = total
        self.truncateFirst = truncateFirst
        self.overlap = overlap
        self.validator = validator
    }
}

/// What to do with one response.
package enum ResponseDecision: Sendable, Equatable {
    /// An interim (1xx) response or a redirect libcurl follows: wait for the final response.
    case ignore
    /// Write the body.
    case write(WritePlan)
    /// A 416 proving that the durable file is already complete.
    case complete
    /// The server is not sending the same representation: truncate durably to 0 and start over.
    case restart(String)
    /// A bad answer: keep the partial, write nothing, try again after a backoff.
    case reject(String)
    /// A temporary refusal: try again after `after` seconds (Retry-After) or the backoff.
    case retryLater(after: Int64?, String)
    /// This mirror cannot serve the file: use the next one.
    case nextAlternate(String)
    /// A redirect target refused us (an expired signed URL): resolve again from the original URL.
    case reResolve(String)

    /// True when the body of this response may reach the file.
    package var writes: Bool {
        if case .write = self { return true }
        return false
    }
}
