/// One downloadable copy of a docset archive: an Atom `rel="enclosure"` link or a Dash mirror `<url>`.
public struct FeedArchive: Sendable, Equatable, Hashable, Codable {
    public var url: String
    /// The media type the feed claims (Atom only).
    public var type: String?
    /// The advisory byte count the feed claims (Atom only).
    public var length: Int64?

    public init(url: String, type: String? = nil, length: Int64? = nil) {
        self.url = url
        self.type = type
        self.length = length
    }
}
