import Foundation

/// One entry of a docset's index, as an indexing backend needs it.
///
/// The same in both index formats (Dash's `searchIndex`, Apple's Core Data `ZTOKEN`): `<dash_entry_…>` markup
/// removed, the fragment split off, the page decoded and its file found for the docset's layout (`EntryResolver`).
public struct DocsetEntry: Sendable, Equatable, Hashable {
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
    /// ``url``'s text (`file:///…/Contents/Resources/Documents/c/printf.html#printf`), percent-encoded; reading it
    /// builds no `URL` (the cheap way to print millions of entries).
    public var urlString: String

    /// The page to open: a `file://` URL of the publisher's file (with the fragment), or the online page. Built
    /// from ``urlString`` on each access.
    public var url: URL { URL(string: urlString) ?? URL(fileURLWithPath: "/") }

    /// Creates a value; backends receive these from ``DocsetEntries``.
    public init(name: String, type: String, rawType: String, page: String, fragment: String?, url: URL) {
        self.init(
            name: name, type: type, rawType: rawType, page: page, fragment: fragment, urlString: url.absoluteString)
    }

    init(name: String, type: String, rawType: String, page: String, fragment: String?, urlString: String) {
        self.name = name
        self.type = type
        self.rawType = rawType
        self.page = page
        self.fragment = fragment
        self.urlString = urlString
    }
}
