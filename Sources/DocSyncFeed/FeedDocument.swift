import Foundation

/// A parsed feed: its own metadata and the docset entries it offers.
public struct FeedDocument: Sendable, Equatable, Hashable, Codable {
    public var format: FeedFormat
    public var id: String?
    public var title: String?
    public var updated: Date?
    public var links: [FeedLink]
    public var entries: [FeedEntry]
    /// Dash: the docset name, the stem of the feed's URL or file name (`C++.xml` → `C++`). Nil for Atom.
    public var name: String?
    /// What was dropped instead of rejecting the feed (an unreadable date: `FEED:LINE: <updated> "…" is not a
    /// date; the field is ignored`). Not encoded.
    public var warnings: [String] = []

    private enum CodingKeys: String, CodingKey { case format, id, title, updated, links, entries, name }

    public init(
        format: FeedFormat, id: String? = nil, title: String? = nil, updated: Date? = nil, links: [FeedLink] = [],
        entries: [FeedEntry] = [], name: String? = nil
    ) {
        self.format = format
        self.id = id
        self.title = title
        self.updated = updated
        self.links = links
        self.entries = entries
        self.name = name
    }
}
