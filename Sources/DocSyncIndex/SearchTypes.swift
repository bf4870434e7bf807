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
    /// Only these docsets (names, case-insensitive, or `@group` for a group of `DocsetIndex.groups`); empty: all.
    public var docsets: [String]
    /// Only entries of these normalised types (case-insensitive, aliases accepted: `func` means Function); empty: all.
    public var types: [String]
    /// At most this many hits: between 0 and ``maximumLimit``; a larger value is clamped to ``maximumLimit`` and a
    /// negative one to 0 (no hits), so any `Int` is safe.
    public var limit: Int {
        didSet { limit = Self.clampedLimit(limit) }
    }

    /// The largest ``limit`` a search honours (one million hits); the one place a search limit is bounded.
    public static let maximumLimit = 1_000_000

    public init(_ text: String, docsets: [String] = [], types: [String] = [], limit: Int = 20) {
        self.text = text
        self.docsets = docsets
        self.types = types
        self.limit = Self.clampedLimit(limit)
    }

    static func clampedLimit(_ limit: Int) -> Int { min(max(limit, 0), maximumLimit) }
}

/// One entry found.
public struct SearchHit: Sendable, Equatable, Codable {
    /// The entry's name as the docset spells it.
    public var name: String
    /// The normalised type (`Method`, `Function`, `Class`, …).
    public var type: String
    /// The docset's name and version (nil when it has none).
    public var docset: String
    public var version: String?
    /// The page to open, with its fragment: `file:///…/Contents/Resources/Documents/page.html#anchor`.
    public var url: URL
    /// How the name matched.
    public var match: MatchKind
}

/// The hits of one search, best first, and the docsets that could not answer.
public struct SearchResults: Sendable, Equatable {
    public var hits: [SearchHit]
    /// One error per docset whose index could not be read; the other docsets' hits are complete.
    public var failures: [DocsetIndexError]
}

/// An installed docset as `DocsetIndex` needs it.
public struct IndexedDocset: Sendable, Equatable {
    public var name: String
    public var version: String?
    /// The docset folder (a resolved, immutable version folder for docsets docsync installed).
    public var path: String

    public init(name: String, version: String?, path: String) {
        self.name = name
        self.version = version
        self.path = path
    }

    /// `path/Contents/Resources/docSet.dsidx`.
    public var indexPath: String { "\(path)/Contents/Resources/docSet.dsidx" }
}
