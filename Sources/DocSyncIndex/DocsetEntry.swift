import Foundation

/// One entry of a docset's index, as an indexing backend needs it.
///
/// The same in both index formats (Dash's `searchIndex`, Apple's Core Data `ZTOKEN`): `<dash_entry_…>` markup
/// removed, the fragment split off, the page decoded and its file found for the docset's layout (`EntryResolver`).
public struct DocsetEntry: Sendable, Equatable, Hashable, Codable {
    /// The entry's name as the docset spells it.
    public var name: String
    /// The normalised type (`Method`, `Function`, `Class`, …; unknown types pass through).
    public var type: String
    /// The type as the index spells it (`clm`, `instm`, `Public Member Functions`, …).
    public var rawType: String
    /// The page relative to the docset's documents folder (`Contents/Resources/Documents`), percent-decoded and
    /// without its fragment: `c/printf.html`; `Documentation/help/api-cups.html` for Apple's layout, which docsync
    /// links there at install. For an online page, its `http(s)` URL.
    public var page: String
    /// The anchor within the page (`printf`, `//apple_ref/c/func/printf`); nil when none.
    public var fragment: String?
    /// The page to open: a `file://` URL of the publisher's file (with the fragment), or the online page.
    public var url: URL

    /// Creates a value; backends receive these from ``DocsetEntries``.
    public init(name: String, type: String, rawType: String, page: String, fragment: String?, url: URL) {
        self.name = name
        self.type = type
        self.rawType = rawType
        self.page = page
        self.fragment = fragment
        self.url = url
    }

    enum CodingKeys: String, CodingKey {
        case name, type, page, fragment, url
        case rawType = "raw_type"
    }
}
