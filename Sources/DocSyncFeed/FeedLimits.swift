/// Bounds that keep a hostile feed from exhausting the process: with the defaults, any feed under the size cap
/// parses in about a second or less and well under 64 MiB (see `Benchmarks/feed-parse-bench`).
package struct FeedLimits: Sendable, Equatable {
    /// Largest accepted document in bytes, counted as the bytes are read (and the cap for fetched feeds).
    package var maxBytes: Int
    /// Deepest accepted element nesting (the root element is depth 1). libxml2 refuses more than 256 by itself.
    package var maxDepth: Int
    /// Most attributes on one element (namespace declarations included), counted before libxml2 parses the tag:
    /// libxml2's time grows with the square of an element's attribute count.
    package var maxAttributes: Int
    /// Most entries in one feed, and links (Atom) or mirror URLs (Dash) in one feed: each is kept in memory.
    package var maxEntries: Int
    /// Longest text of an element the parser keeps (a title, an id, a version), in UTF-8 bytes.
    package var maxTextBytes: Int
    /// Longest link or mirror URL after resolution against `xml:base` (which could otherwise multiply memory).
    package var maxURLBytes: Int

    package static let defaultMaxBytes = 32 << 20
    package static let defaultMaxDepth = 64
    package static let defaultMaxAttributes = 64
    package static let defaultMaxEntries = 10_000
    package static let defaultMaxTextBytes = 64 << 10
    package static let defaultMaxURLBytes = 2048

    package init(
        maxBytes: Int = FeedLimits.defaultMaxBytes, maxDepth: Int = FeedLimits.defaultMaxDepth,
        maxAttributes: Int = FeedLimits.defaultMaxAttributes, maxEntries: Int = FeedLimits.defaultMaxEntries,
        maxTextBytes: Int = FeedLimits.defaultMaxTextBytes, maxURLBytes: Int = FeedLimits.defaultMaxURLBytes
    ) {
        self.maxTextBytes = maxTextBytes
        self.maxURLBytes = maxURLBytes
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
        self.maxAttributes = maxAttributes
        self.maxEntries = maxEntries
    }
}
