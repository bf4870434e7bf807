extension FeedError {
    /// Names the feed in a reader failure and keeps its position.
    init(_ error: XMLReaderError, feed: String) {
        switch error {
        case .input(.tooLarge(let limit)): self.init(feed: feed, reason: .tooLarge(limit: limit))
        case .input(.doctype(let line, let column)):
            self.init(feed: feed, line: line, column: column, reason: .doctypeForbidden)
        case .input(.io(let errno)):
            self.init(feed: feed, reason: .unreadable(errno: errno, message: Self.text(ofErrno: errno)))
        case .input(.tooManyAttributes(let limit, let line)):
            self.init(feed: feed, line: line, reason: .tooManyAttributes(limit: limit))
        case .doctype(let line): self.init(feed: feed, line: line, reason: .doctypeForbidden)
        case .tooDeep(let limit, let line): self.init(feed: feed, line: line, reason: .tooDeep(limit: limit))
        case .textTooLong(let limit, let line): self.init(feed: feed, line: line, reason: .textTooLong(limit: limit))
        case .library(let error): self.init(feed: feed, reason: .libraryUnavailable(error))
        case .malformed(let code, let message, let line, let column, let inputEnded):
            self.init(
                feed: feed, line: line > 0 ? line : nil, column: line > 0 && column > 0 ? column : nil,
                reason: Self.reason(code: code, message: message, inputEnded: inputEnded))
        }
    }

    /// libxml2's "premature end" errors at the end of the input mean the document was cut short; its own depth
    /// limit (256, below which `FeedLimits.maxDepth` normally stops first) is `tooDeep`.
    static func reason(code: Int32, message: String, inputEnded: Bool) -> Reason {
        if message.hasPrefix("Excessive depth in document: 256") { return .tooDeep(limit: 256) }
        if inputEnded, LibXML2ErrorCode.prematureEnd.contains(code) { return .truncated }
        return .notXML(code: code, message: message)
    }
}
