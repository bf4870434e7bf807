import Foundation

/// How well an entry's name matches a query, best first. Case is ignored.
public enum MatchKind: Int, Sendable, Comparable, Codable, CaseIterable {
    /// The name is the query.
    case exact
    /// The name starts with the query.
    case prefix
    /// The name contains the query elsewhere.
    case substring
    /// The query's characters appear in the name in order, with gaps (`nsmarr` → `NSMutableArray`).
    case fuzzy

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The name for JSON and text output: `exact`, `prefix`, `substring`, `fuzzy`.
    public var label: String { String(describing: self) }

    /// How `name` matches `query`, both already lowercased UTF-8; nil when it does not (an empty query matches
    /// nothing). The reference for the ranking `DocsetIndex` implements over its derived index.
    package static func classify(name: some Collection<UInt8>, query: some Collection<UInt8>) -> MatchKind? {
        let n = Array(name)
        let q = Array(query)
        guard !q.isEmpty, q.count <= n.count else { return nil }
        if n == q { return .exact }
        if n.starts(with: q) { return .prefix }
        if n.count >= q.count, (0...(n.count - q.count)).contains(where: { n[$0..<($0 + q.count)].elementsEqual(q) }) {
            return .substring
        }
        var k = 0
        for byte in n where byte == q[k] {
            k += 1
            if k == q.count { return .fuzzy }
        }
        return nil
    }
}

/// What to look for.
public struct SearchQuery: Sendable, Equatable {
    /// The text to match against entry names (case-insensitive).
    public var text: String
    /// Only these docsets (names, case-insensitive, `NAME@VERSION` for the docset `NAME` at that version, or
    /// `@group` for a group of `DocsetIndex.groups`); empty: all.
    public var docsets: [String]
    /// Only entries of these normalised types (case-insensitive, aliases accepted: `func` means Function); empty: all.
    public var types: [String]
    /// Only docsets having any of these keywords (``IndexedDocset/keywords``, ignoring case); empty: all. With
    /// keywords and an empty ``text``, the selected docsets' entries are listed A–Z, at most
    /// ``maximumListing``, as Zeal lists them for `html:`. ``DocsetIndex/search(_:)`` throws
    /// ``DocsetIndexError/unknownKeyword(_:known:)`` when no docset has any of them.
    public var keywords: [String] = []
    /// At most this many hits: 0 through ``maximumLimit``; ``DocsetIndex/search(_:)`` throws
    /// ``DocsetIndexError/invalidQuery(_:)`` for any other value (a client's limit passed through is checked, never
    /// trusted).
    public var limit: Int

    /// The largest ``limit`` accepted: 10 000 hits.
    public static let maximumLimit = 10_000
    /// The longest ``text`` accepted, in UTF-8 bytes (entry names longer than this exist in no docset).
    public static let maximumTextBytes = 1024
    /// The most names in ``docsets`` or in ``types``.
    public static let maximumFilters = 1024
    /// The most entries a keyword-only query lists (Zeal's `LIMIT 1000`).
    public static let maximumListing = 1000

    /// Creates a query; nothing is checked until it runs (see ``problem``).
    public init(_ text: String, docsets: [String] = [], types: [String] = [], limit: Int = 20) {
        self.text = text
        self.docsets = docsets
        self.types = types
        self.limit = limit
    }

    /// A query from a search string as Zeal reads it (``KeywordQuery``): `py,django:view` searches `view` in the
    /// docsets with keyword `py` or `django`; `html:` lists the `html` docsets' entries; `std::vector` is plain text.
    public init(parsing string: String, docsets: [String] = [], types: [String] = [], limit: Int = 20) {
        let parsed = KeywordQuery(parsing: string)
        self.init(parsed.text, docsets: docsets, types: types, limit: limit)
        keywords = parsed.keywords
    }

    /// Whether this query lists entries A–Z instead of matching a text: keywords and no text.
    public var isListing: Bool { text.isEmpty && !keywords.isEmpty }

    /// Why this query cannot run, or nil when it can: ``limit`` outside 0…``maximumLimit``, ``text`` longer than
    /// ``maximumTextBytes``, or more than ``maximumFilters`` docset or type names (or one longer than
    /// ``maximumTextBytes``). Any text is otherwise accepted: an empty one matches nothing, control characters and
    /// U+FFFD (what invalid UTF-8 becomes) are matched as they are.
    public var problem: String? {
        if limit < 0 || limit > Self.maximumLimit {
            return "limit \(limit) is out of range (0...\(Self.maximumLimit))"
        }
        if text.utf8.count > Self.maximumTextBytes {
            return "the text is \(text.utf8.count) bytes long (at most \(Self.maximumTextBytes))"
        }
        for (what, names) in [("docset", docsets), ("type", types), ("keyword", keywords)] {
            if names.count > Self.maximumFilters {
                return "\(names.count) \(what) names (at most \(Self.maximumFilters))"
            }
            if names.contains(where: { $0.utf8.count > Self.maximumTextBytes }) {
                return "a \(what) name is longer than \(Self.maximumTextBytes) bytes"
            }
        }
        return nil
    }
}

/// One entry found.
public struct SearchHit: Sendable, Equatable, Codable {
    /// The entry's name as the docset spells it.
    public var name: String
    /// The normalised type (`Method`, `Function`, `Class`, …).
    public var type: String
    /// The docset's name.
    public var docset: String
    /// The docset's version (nil when it has none).
    public var version: String?
    /// The page to open, with its fragment: `file:///…/Contents/Resources/Documents/page.html#anchor` (the
    /// publisher's file: under `Contents/Resources/Documentation/` for Apple's layout), or the online page.
    public var url: URL
    /// How the name matched.
    public var match: MatchKind
    /// The page relative to the docset's documents folder, as ``DocsetEntry/page`` names it (percent-decoded, no
    /// fragment): `c/printf.html`; `Documentation/help/api-cups.html` for Apple's layout. Read it with
    /// `InstalledDocset.contents(of:)`, or below the documents folder. For an online page, its `http(s)` URL.
    public var page: String
    /// The anchor within the page, as ``DocsetEntry/fragment`` (nil when none).
    public var fragment: String?
    /// The type as the index spells it (`clm`, `instm`, `Public Member Functions`, …), as ``DocsetEntry/rawType``.
    public var rawType: String
}

/// The hits of one search, best first, and the docsets that could not answer.
public struct SearchResults: Sendable, Equatable {
    /// At most the query's limit, best first.
    public var hits: [SearchHit]
    /// One error per docset whose index could not be read; the other docsets' hits are complete.
    public var failures: [DocsetIndexError]
}

/// An installed docset as `DocsetIndex` needs it.
public struct IndexedDocset: Sendable, Equatable {
    /// The docset's name (`<root>/<name>.docset`), as search results and filters name it.
    public var name: String
    /// Its version, when known.
    public var version: String?
    /// The docset folder (a resolved, immutable version folder for docsets docsync installed).
    public var path: String
    /// Its search keywords (``SearchQuery/keywords`` selects the docsets having any of them, ignoring case).
    public var keywords: [String]

    /// A docset to search: `name`, `version`, and the folder whose `Contents/Resources/docSet.dsidx` is read;
    /// `keywords` for `kw:` queries (`InstalledDocset.keywords`).
    public init(name: String, version: String?, path: String, keywords: [String] = []) {
        self.name = name
        self.version = version
        self.path = path
        self.keywords = keywords
    }

    /// `path/Contents/Resources/docSet.dsidx`.
    public var indexPath: String { "\(path)/Contents/Resources/docSet.dsidx" }
}
