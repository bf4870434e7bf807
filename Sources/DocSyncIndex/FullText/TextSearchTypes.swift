import Foundation

/// What to look for in the pages' text (``DocsetIndex/fullTextSearch(_:)``).
public struct TextSearchQuery: Sendable, Equatable {
    /// Words to find (all of them), `"quoted phrases"` (in order), `word*` (a prefix), `-word` (excluded); case and
    /// diacritics are ignored. At most 1 KiB.
    public var text: String
    /// Only these docsets (names, case-insensitive, or `@group`); empty: all.
    public var docsets: [String]
    /// At most this many hits: 1 through ``SearchQuery/maximumLimit``.
    public var limit: Int

    /// Creates a query; it is checked when it runs.
    public init(_ text: String, docsets: [String] = [], limit: Int = 20) {
        self.text = text
        self.docsets = docsets
        self.limit = limit
    }
}

/// One page found by its text.
public struct TextSearchHit: Sendable, Equatable, Codable {
    /// The docset's name.
    public var docset: String
    /// The docset's version (nil when it has none).
    public var version: String?
    /// The page, relative to the docset's documents folder (as ``DocsetEntry`` gives it; read it with
    /// ``InstalledDocset/contents(of:maximumBytes:)``).
    public var page: String
    /// The page's title (its `<title>`).
    public var title: String
    /// Plain text around the first match on one line, the matched words between `**` (no markup; control
    /// characters escaped as `\e`, `\u{…}`).
    public var snippet: String
    /// The page: `file:///…/Contents/Resources/Documents/page.html`.
    public var url: URL
    /// BM25 (lower is better), the title weighted ten times the body.
    public var score: Double
}

/// The hits of one text search, best first, and the docsets that could not answer.
public struct TextSearchResults: Sendable, Equatable {
    /// At most the query's limit, best first.
    public var hits: [TextSearchHit]
    /// Selected docsets whose text index is being built right now (search again when it is done).
    public var building: [String]
    /// Selected docsets without a text index (`[search] full_text = false`, or not built yet: `docsync sync`
    /// builds it).
    public var missing: [String]
    /// One error per docset whose text index could not be read.
    public var failures: [DocsetIndexError]

    /// Results made of these parts (none by default: what a search that found nothing answers).
    package init(
        hits: [TextSearchHit] = [], building: [String] = [], missing: [String] = [], failures: [DocsetIndexError] = []
    ) {
        self.hits = hits
        self.building = building
        self.missing = missing
        self.failures = failures
    }
}
