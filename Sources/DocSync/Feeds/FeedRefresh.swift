/// How a sync got a feed's current content (the `source` of ``SyncEvent/feedChecked(feed:source:docsets:)``).
public enum FeedRefresh: String, Sendable, Hashable, Codable {
    /// Read from a local file.
    case local
    /// The stored copy was still fresh by its `Cache-Control` / `Expires`: no request was sent.
    case fresh
    /// The server answered 304: the stored copy is current.
    case notModified = "not_modified"
    /// A new body was downloaded.
    case downloaded
}
