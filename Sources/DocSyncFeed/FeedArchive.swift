/// One downloadable copy of a docset archive: an Atom `rel="enclosure"` link or a Dash mirror `<url>`.
package struct FeedArchive: Sendable, Equatable, Hashable, Codable {
    package var url: String
    /// The media type the feed claims (Atom only).
    package var type: String?
    /// The advisory byte count the feed claims (Atom only).
    package var length: Int64?

    package init(url: String, type: String? = nil, length: Int64? = nil) {
        self.url = url
        self.type = type
        self.length = length
    }
}
