/// A search string split as Zeal splits it (`SearchQuery::fromString`, zealdocs/zeal
/// `src/libs/registry/searchquery.cpp`): the text before the first `:` is a comma-separated keyword list when that
/// `:` is not at the start and is not followed by another `:` — unless it is followed by two (`a:::b` is keyword `a`,
/// query `::b`). So `std::vector` is a plain query, `py,django:view` is keywords `py`, `django` and query `view`, and
/// `html:` is keyword `html` with an empty query (list the docset's entries A–Z).
///
/// The keyword list is trimmed as a whole and split on `,` without trimming each keyword, exactly as Zeal does
/// (`py, django:view` has the keywords `py` and ` django`); the query is trimmed. Keywords match a docset's keywords
/// ignoring case (``matches(_:)``). `docsync search`, `serve`'s `/api/search?q=` and its search page parse with this.
public struct KeywordQuery: Sendable, Equatable {
    /// The keywords before the `:`, as typed (empty: search every docset).
    public var keywords: [String]
    /// The text to search for, trimmed (empty with keywords: list those docsets' entries A–Z).
    public var text: String

    /// A query with these parts.
    public init(keywords: [String] = [], text: String) {
        self.keywords = keywords
        self.text = text
    }

    /// Splits `string` as Zeal's `SearchQuery::fromString` does.
    public init(parsing string: String) {
        let characters = Array(string)
        guard let separator = characters.firstIndex(of: ":"), separator > 0 else {
            self.init(text: Self.trimmed(string))
            return
        }
        let rest = characters[(separator + 1)...]
        guard !rest.starts(with: [":"]) || rest.starts(with: [":", ":"]) else {
            self.init(text: Self.trimmed(string))
            return
        }
        let list = Self.trimmed(String(characters[..<separator]))
        self.init(
            keywords: list.split(separator: ",", omittingEmptySubsequences: false).map(String.init),
            text: Self.trimmed(String(rest)))
    }

    /// Whether any of ``keywords`` is one of `docsetKeywords`, ignoring case (Zeal's `SearchQuery::hasKeywords`).
    public func matches(_ docsetKeywords: [String]) -> Bool {
        let wanted = Set(keywords.map { $0.lowercased() })
        return docsetKeywords.contains { wanted.contains($0.lowercased()) }
    }

    /// The query as a string again: `kw1,kw2:text`, or `text` without keywords (Zeal's `toString`).
    public var description: String {
        keywords.isEmpty ? text : keywords.joined(separator: ",") + ":" + text
    }

    /// Qt's `QString::trimmed`: whitespace removed at both ends.
    private static func trimmed(_ text: String) -> String {
        String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
