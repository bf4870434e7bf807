import Foundation

/// A parsed feed: its own metadata and the docset entries it offers.
package struct FeedDocument: Sendable, Equatable, Hashable, Codable {
    package var format: FeedFormat
    package var id: String?
    package var title: String?
    package var updated: Date?
    package var links: [FeedLink]
    package var entries: [FeedEntry]
    /// Dash: the docset name, the stem of the feed's URL or file name (`C++.xml` → `C++`). Nil for Atom.
    package var name: String?
    /// What was dropped instead of rejecting the feed (an unreadable date: `FEED:LINE: <updated> "…" is not a
    /// date; the field is ignored`). Not encoded.
    package var warnings: [String] = []

    private enum CodingKeys: String, CodingKey { case format, id, title, updated, links, entries, name }

    package init(
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
