import DocSyncHTTP

/// The representation a segmented download is made of: its complete length and the strong validator of the first
/// response. Every extra response must show exactly this (or, across mirrors, what `SegmentResponsePolicy` allows).
package struct SegmentIdentity: Sendable, Equatable {
    package var length: Int64
    package var validator: Validator

    package init(length: Int64, validator: Validator) {
        self.length = length
        self.validator = validator
    }

    /// The precondition an extra request carries: `If-Match` with a strong ETag, else `If-Unmodified-Since` with a
    /// strong Last-Modified; nil when neither is known (then the download is never split).
    package var precondition: String? { Self.precondition(for: validator) }

    static func precondition(for validator: Validator) -> String? {
        if let etag = validator.strongETag { return "If-Match: \(etag)" }
        if validator.etag == nil, validator.lastModifiedIsStrong, let modified = validator.lastModified {
            return "If-Unmodified-Since: \(modified)"
        }
        return nil
    }
}

/// Whether the first response allows splitting the download, and how.
package enum SplitDecision: Sendable, Equatable {
    case split(SegmentIdentity)
    /// Stay on one connection, and why.
    case single(String)
}

/// When a download may be split, and into which segments. Pure: table-tested.
package enum SplitPolicy {
    /// Splits only when the first response (to `Range: bytes=0-`) proves it safe: a 206 for the whole file, or a 200
    /// with `Accept-Ranges: bytes`; a known length of at least twice `minimumSegment`; a strong validator; no content
    /// coding; the expected length, when one is known.
    package static func decide(
        _ head: HTTPResponseHead, connections: Int, minimumSegment: Int64, expectedLength: Int64? = nil
    ) -> SplitDecision {
        guard connections > 1 else { return .single("one connection configured") }
        let length: Int64
        switch head.status {
        case 206:
            let ranges = head.values("Content-Range")
            guard ranges.count == 1, let range = ContentRange(parsing: ranges[0]),
                case .satisfied(let first, let last, let complete?) = range.form, first == 0, last + 1 == complete
            else { return .single("206 to bytes=0- is not the whole file") }
            length = complete
        case 200:
            let accepts = head.values("Accept-Ranges").flatMap { $0.lowercased().split(separator: ",") }
                .contains { $0.filter { $0 != " " && $0 != "\t" } == "bytes" }
            guard accepts else { return .single("200 without Accept-Ranges: bytes") }
            guard let field = head.value("Content-Length"), let value = Int64(field), value >= 0 else {
                return .single("200 without a Content-Length")
            }
            length = value
        default:
            return .single("HTTP \(head.status)")
        }
        let coded = head.values("Content-Encoding").contains { !$0.lowercased().contains("identity") }
        if coded { return .single("the response has a content coding") }
        if let type = head.value("Content-Type"), type.lowercased().hasPrefix("multipart/") {
            return .single("multipart response")
        }
        if head.values("Content-Type").contains(where: { $0.lowercased().contains("text/html") }) {
            return .single("an HTML page (the single-connection path judges soft 404s)")
        }
        if let expectedLength, expectedLength != length {
            return .single("length \(length) is not the expected \(expectedLength)")
        }
        let identity = SegmentIdentity(length: length, validator: Validator(head: head))
        guard identity.precondition != nil else { return .single("no strong validator (ETag or Last-Modified)") }
        guard length >= 2 * minimumSegment else {
            return .single("\(length) bytes: shorter than twice the minimum segment (\(minimumSegment))")
        }
        return .split(identity)
    }

    /// The first segments: pieces of at least `minimumSegment` (and about a quarter of a connection's share), every
    /// boundary on a multiple of `chunkSize`, tiling `0..<length` in order.
    package static func plan(length: Int64, chunkSize: Int64, minimumSegment: Int64, connections: Int)
        -> [Range<Int64>]
    {
        guard length > 0 else { return [] }
        let share = length / (Int64(min(max(1, connections), 1 << 20)) * 4)  // any Int: no overflow
        let size = roundUp(max(minimumSegment, share, chunkSize), to: chunkSize)
        return stride(from: Int64(0), to: length, by: Int(size)).map { $0..<min(length, $0 + size) }
    }

    static func roundUp(_ value: Int64, to multiple: Int64) -> Int64 {
        (value + multiple - 1) / multiple * multiple
    }
}
