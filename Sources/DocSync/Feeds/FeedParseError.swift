internal import DocSyncFeed

/// Why ``ParsedFeed/parse(fileAt:baseURL:maxBytes:)`` or ``ParsedFeed/fetch(url:baseURL:maxBytes:timeout:)``
/// failed.
///
/// The swift-service-lifecycle pattern: compare with the static members (`error == .invalidFeed`), keep a
/// `default:` branch; ``feed`` and ``message`` say which feed and why.
public struct FeedParseError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Code: String, Sendable, Hashable {
        case invalidFeed = "invalid_feed"
        case unavailable
        case unreadable
    }

    private let code: Code
    /// The feed's file path or URL, as given.
    public let feed: String
    /// What is wrong, for people.
    public let message: String

    private init(_ code: Code, feed: String = "", message: String = "") {
        self.code = code
        self.feed = feed
        self.message = message
    }

    init(_ error: FeedError) {
        let code: Code =
            switch error.reason {
            case .transport, .httpStatus: .unavailable
            case .unreadable: .unreadable
            default: .invalidFeed
            }
        self.init(code, feed: error.feed, message: error.description)
    }

    /// The document is not a feed docsync accepts: not well-formed, not Atom or Dash, over a limit, an HTML page.
    public static let invalidFeed = Self(.invalidFeed)
    /// The server could not be reached or did not answer 200.
    public static let unavailable = Self(.unavailable)
    /// The file could not be read (missing, unreadable).
    public static let unreadable = Self(.unreadable)

    /// Errors of the same kind are equal, whatever their feed and message.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }

    /// Hashes the kind only, as ``==(_:_:)`` compares.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// The message, naming the feed (as the feed parser words it).
    public var description: String { message }
}
