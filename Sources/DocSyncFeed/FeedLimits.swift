/// Bounds that keep a hostile feed from exhausting the process.
public struct FeedLimits: Sendable, Equatable {
    /// Largest accepted document in bytes, counted as the bytes are read (and the cap for fetched feeds).
    public var maxBytes: Int
    /// Deepest accepted element nesting (the root element is depth 1). libxml2 refuses more than 256 by itself.
    public var maxDepth: Int

    public static let defaultMaxBytes = 32 << 20
    public static let defaultMaxDepth = 64

    public init(maxBytes: Int = FeedLimits.defaultMaxBytes, maxDepth: Int = FeedLimits.defaultMaxDepth) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
    }
}
