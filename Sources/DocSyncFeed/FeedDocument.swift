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
