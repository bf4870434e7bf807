import DocSyncSupport

/// Why a feed was refused, naming the feed (its URL or path) and, where known, the line and column.
package struct FeedError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Reason: Sendable, Equatable {
        /// libxml2 found the document not well-formed (its error code and message are kept).
        case notXML(code: Int32, message: String)
        /// The input ended inside the document.
        case truncated
        /// The document has a DOCTYPE; feeds never need one and it is how entity attacks begin.
        case doctypeForbidden
        /// More than `limit` bytes.
        case tooLarge(limit: Int)
        /// Elements nested deeper than `limit`.
        case tooDeep(limit: Int)
        /// An element's text is longer than `limit` bytes.
        case textTooLong(limit: Int)
        /// A link or mirror URL is longer than `limit` bytes once resolved.
        case urlTooLong(limit: Int)
        /// An element with more than `limit` attributes.
        case tooManyAttributes(limit: Int)
        /// More than `limit` elements `name` in one feed (`entry`) or one entry (`link`, `url`, `name`).
        case tooManyElements(name: String, limit: Int)
        /// The root is neither Atom's `feed` nor Dash's `entry`.
        case unknownRootElement(name: String, namespace: String?)
        /// A required element is missing (e.g. a Dash feed without `version` or `url`).
        case missingRequiredElement(String)
        /// An element holds a date that is not RFC 3339.
        case invalidDate(element: String, value: String)
        /// A checksum element that is not 64 hex digits.
        case invalidChecksum(element: String, value: String)
        /// The file could not be opened or read (errno and its text).
        case unreadable(errno: Int32, message: String)
        /// Fetching the feed failed at the transport level.
        case transport(message: String)
        /// Fetching the feed got a non-2xx final status.
        case httpStatus(Int)
        /// The server answered with an HTML page (soft 404, captive portal, login page), not a feed.
        case htmlPage
        /// libxml2, which reads feeds, could not be loaded.
        case libraryUnavailable(LibraryUnavailable)
    }

    /// The feed's URL (or path, for a local file).
    package var feed: String
    package var line: Int?
    package var column: Int?
    package var reason: Reason

    package init(feed: String, line: Int? = nil, column: Int? = nil, reason: Reason) {
        self.feed = feed
        self.line = line
        self.column = column
        self.reason = reason
    }

    package var description: String {
        var location = feed
        if let line {
            location += ":\(line)"
            if let column { location += ":\(column)" }
        }
        return "\(location): \(reasonText)"
    }

    private var reasonText: String {
        switch reason {
        case .notXML(let code, let message): "not well-formed XML: \(message) (libxml2 error \(code))"
        case .truncated: "the document ends too early (truncated)"
        case .doctypeForbidden: "a DOCTYPE is not allowed in a feed"
        case .tooLarge(let limit): "the feed is larger than the limit of \(limit) bytes"
        case .tooDeep(let limit): "elements are nested deeper than the limit of \(limit)"
        case .textTooLong(let limit): "an element's text is longer than the limit of \(limit) bytes"
        case .urlTooLong(let limit): "a URL is longer than the limit of \(limit) bytes"
        case .tooManyAttributes(let limit): "an element has more than the limit of \(limit) attributes"
        case .tooManyElements(let name, let limit): "more than the limit of \(limit) <\(name)> elements"
        case .unknownRootElement(let name, let namespace):
            "unknown root element <\(name)>\(namespace.map { " in namespace \($0)" } ?? ""): "
                + "expected an Atom <feed> or a Dash <entry>"
        case .missingRequiredElement(let name): "required element <\(name)> is missing"
        case .invalidDate(let element, let value):
            "<\(element)> is not an RFC 3339 date: \"\(Self.abbreviated(value))\""
        case .invalidChecksum(let element, let value):
            "<\(element)> is not a SHA-256 (64 hex digits): \"\(Self.abbreviated(value))\""
        case .unreadable(let errno, let message): "cannot read the file: \(message) (errno \(errno))"
        case .transport(let message): "fetch failed: \(message)"
        case .httpStatus(let status): "fetch failed: HTTP status \(status)"
        case .htmlPage:
            "an HTML page, not a feed (a wrong URL, a login or captive portal page?): expected Atom or Dash XML"
        case .libraryUnavailable(let error): error.description
        }
    }

    /// A hostile feed's value can be megabytes long: messages quote at most 80 characters of it.
    static func abbreviated(_ value: String) -> String {
        value.count <= 80 ? value : value.prefix(80) + "…"
    }
}
