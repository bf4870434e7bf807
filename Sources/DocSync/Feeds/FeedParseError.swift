internal import DocSyncFeed

/// Why ``ParsedFeed/parse(fileAt:baseURL:maxBytes:)`` or ``ParsedFeed/fetch(url:baseURL:maxBytes:timeout:)``
/// failed.
///
/// The swift-service-lifecycle pattern: compare with the static members (`error == .invalidFeed`), keep a
/// `default:` branch; ``feed`` and ``message`` say which feed and why.
public struct FeedParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of error: compare it with the static members (`error.kind == .invalidFeed`); new kinds may be added
    /// (keep a `default:` branch). Its ``description`` is a stable machine-readable name (`invalid_feed`).
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        /// The machine-readable name.
        public let description: String
        private init(_ name: String) { description = name }
        /// `invalid_feed`.
        public static let invalidFeed = Kind("invalid_feed")
        /// `unavailable`.
        public static let unavailable = Kind("unavailable")
        /// `unreadable`.
        public static let unreadable = Kind("unreadable")
    }

    /// The kind of error (``Kind``).
    public let kind: Kind
    /// The feed's file path or URL, as given.
    public let feed: String
    /// What is wrong, for people.
    public let message: String

    private init(_ code: Kind, feed: String = "", message: String = "") {
        self.kind = code
        self.feed = feed
        self.message = message
    }

    init(_ error: FeedError) {
        let code: Kind =
            switch error.reason {
            case .transport, .httpStatus: .unavailable
            case .unreadable, .libraryUnavailable: .unreadable
            default: .invalidFeed
            }
        self.init(code, feed: error.feed, message: error.description)
    }

    /// The document is not a feed docsync accepts: not well-formed, not Atom or Dash, over a limit, an HTML page.
    public static let invalidFeed = Self(.invalidFeed)
    /// The server could not be reached or did not answer 200.
    public static let unavailable = Self(.unavailable)
    /// The file could not be read (missing, unreadable), or libxml2, which reads it, could not be loaded.
    public static let unreadable = Self(.unreadable)

    /// Errors of the same kind are equal, whatever their feed and message.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.kind == rhs.kind }

    /// Hashes the kind only, as ``==(_:_:)`` compares.
    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }

    /// The message, naming the feed (as the feed parser words it).
    public var description: String { message }
}
