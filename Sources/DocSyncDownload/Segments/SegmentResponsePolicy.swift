import DocSyncHTTP

/// What to do with the answer to one extra (segment) request.
package enum SegmentVerdict: Sendable, Equatable {
    /// Write the body at the asked range. `adopt`: a mirror admitted on the feed's SHA-256 showed this validator,
    /// which its later requests must carry.
    case accept(adopt: Validator?)
    /// The origin's representation changed (412, or another validator or length from the first mirror): restart
    /// from zero under the new identity.
    case originChanged(String)
    /// This mirror serves something else or answers wrongly: exclude it from this download and report it.
    case alternateFault(AlternateFault.Reason, String)
    /// A mirror refused the download's precondition and the feed's SHA-256 will check the result: ask it again
    /// without a precondition, to admit it under its own validator.
    case readmit(String)
    /// A transient server answer (408, 429, 5xx): try again later.
    case retry(after: Int64?, String)
    /// An interim or redirect head: wait for the final one.
    case ignore
}

/// Judges every response to a segment request against the download's identity. Pure: table-tested.
///
/// Alternate admission rule (README "Segmented downloads"): a mirror is used only while it shows the download's
/// length and strong validator. A mirror with another validator is admitted only when the feed gives a SHA-256:
/// then it is asked once without a precondition, and its own strong validator is required from then on. Overlap
/// windows at joins cannot prove the bytes between them equal; only a trusted digest of the whole file can.
package enum SegmentResponsePolicy {
    package struct Context: Sendable, Equatable {
        package var identity: SegmentIdentity
        /// The byte range that was asked for (`Range: bytes=lower-(upper-1)`).
        package var asked: Range<Int64>
        /// The validator this mirror must show; nil when it is being admitted without a precondition.
        package var expected: Validator?
        /// True for the mirror whose first response defined the identity.
        package var isOrigin: Bool
        /// True when the feed's SHA-256 checks the finished file.
        package var digestKnown: Bool

        package init(
            identity: SegmentIdentity, asked: Range<Int64>, expected: Validator?, isOrigin: Bool, digestKnown: Bool
        ) {
            self.identity = identity
            self.asked = asked
            self.expected = expected
            self.isOrigin = isOrigin
            self.digestKnown = digestKnown
        }
    }

    /// The request headers of a segment request: one closed range, the precondition, no content coding.
    package static func headers(asking range: Range<Int64>, precondition: String?) -> [String] {
        ["Range: bytes=\(range.lowerBound)-\(range.upperBound - 1)"] + (precondition.map { [$0] } ?? [])
            + ["Accept-Encoding: identity"]
    }

    package static func judge(_ head: HTTPResponseHead, _ context: Context) -> SegmentVerdict {
        if head.isInterim { return .ignore }
        if head.isRedirect {
            guard head.value("Location") == nil else { return .ignore }
            return .alternateFault(.badResponse, "\(head.status) without Location")
        }
        switch head.status {
        case 206: return partial(head, context)
        case 200: return whole(head, context)
        case 412:
            if context.isOrigin { return .originChanged("412 Precondition Failed: the file changed") }
            if context.digestKnown, context.expected != nil {
                return .readmit("412: serves another version; the feed's SHA-256 will check it")
            }
            return .alternateFault(.validatorMismatch, "412 Precondition Failed: serves another version of the file")
        case 416: return .alternateFault(.lengthMismatch, "416 for bytes inside the file: a shorter, different file")
        case 408, 429, 500...599: return .retry(after: ResponsePolicy.retryAfter(head), "HTTP \(head.status)")
        default: return .alternateFault(.httpStatus, "HTTP \(head.status)")
        }
    }

    /// A 200 to a closed range request is never written: the mirror ignores Range, or it is a soft 404 page.
    private static func whole(_ head: HTTPResponseHead, _ context: Context) -> SegmentVerdict {
        if isHTML(head) { return .alternateFault(.htmlPage, "200 with an HTML page (a soft 404?) instead of the file") }
        if head.value("Content-Length") == "0" { return .alternateFault(.emptyBody, "empty 200 instead of the file") }
        let now = Validator(head: head)
        if context.isOrigin, let expected = context.expected, changed(now, from: expected) {
            return .originChanged("200 with another validator (\(now.etag ?? now.lastModified ?? "none"))")
        }
        return .alternateFault(.ignoresRange, "200 to a range request: the mirror ignores Range")
    }

    private static func partial(_ head: HTTPResponseHead, _ context: Context) -> SegmentVerdict {
        let asked = context.asked
        if isHTML(head) { return .alternateFault(.htmlPage, "206 with an HTML page instead of the file") }
        if let type = head.value("Content-Type"), type.lowercased().hasPrefix("multipart/") {
            return .alternateFault(.badResponse, "206 with Content-Type \(type) to a single range")
        }
        let coded = head.values("Content-Encoding").contains { !$0.lowercased().contains("identity") }
        if coded { return .alternateFault(.badResponse, "206 with a content coding") }
        let ranges = head.values("Content-Range")
        guard ranges.count == 1, let range = ContentRange(parsing: ranges[0]),
            case .satisfied(let first, let last, let complete) = range.form
        else { return .alternateFault(.badResponse, "206 without one valid Content-Range (\(ranges))") }
        guard let complete, complete == context.identity.length else {
            let reason = "complete length \(complete.map(String.init) ?? "*") is not \(context.identity.length)"
            if context.isOrigin { return .originChanged(reason) }
            return .alternateFault(.lengthMismatch, "a different file: \(reason)")
        }
        guard first == asked.lowerBound, last + 1 == asked.upperBound else {
            return .alternateFault(
                .badResponse, "206 for bytes \(first)-\(last), asked \(asked.lowerBound)-\(asked.upperBound - 1)")
        }
        let lengths = head.values("Content-Length")
        if !lengths.isEmpty, lengths != ["\(last - first + 1)"] {
            return .alternateFault(.badResponse, "Content-Length \(lengths) does not match Content-Range '\(ranges[0])'")
        }
        if head.value("Content-Length") == "0" { return .alternateFault(.emptyBody, "empty 206") }
        let now = Validator(head: head)
        guard let expected = context.expected else {  // admission without a precondition
            guard context.digestKnown, SegmentIdentity.precondition(for: now) != nil else {
                return .alternateFault(.validatorMismatch, "no strong validator to hold the mirror to")
            }
            return .accept(adopt: now)
        }
        if missing(now, expected) {
            return .alternateFault(.validatorMismatch, "206 without the validator the download is held to")
        }
        if changed(now, from: expected) {
            let reason =
                "validator \(now.etag ?? now.lastModified ?? "none") is not \(expected.etag ?? expected.lastModified ?? "none")"
            if context.isOrigin { return .originChanged(reason) }
            if context.digestKnown { return .readmit(reason) }
            return .alternateFault(.validatorMismatch, "another version: \(reason)")
        }
        return .accept(adopt: nil)
    }

    /// The validator the download holds the mirror to differs from the one shown.
    private static func changed(_ now: Validator, from expected: Validator) -> Bool {
        if let etag = expected.strongETag { return now.etag != nil && now.etag != etag }
        if let modified = expected.lastModified { return now.lastModified != nil && now.lastModified != modified }
        return false
    }

    /// Every 206 must show the validator (strict: an absent one is not taken on trust).
    private static func missing(_ now: Validator, _ expected: Validator) -> Bool {
        if expected.strongETag != nil { return now.etag == nil }
        return now.lastModified == nil
    }

    private static func isHTML(_ head: HTTPResponseHead) -> Bool {
        head.values("Content-Type").contains { $0.lowercased().contains("text/html") }
    }
}
