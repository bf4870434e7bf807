/// An Atom `link` (RFC 4287 §4.2.7) with `href` already resolved against `xml:base` and the document URL.
public struct FeedLink: Sendable, Equatable, Hashable, Codable {
    public var href: String
    /// `alternate` when the element has no `rel`.
    public var rel: String
    public var type: String?
    /// The advisory byte count; nil when absent or not a non-negative integer.
    public var length: Int64?
    public var title: String?
    public var hreflang: String?

    public init(
        href: String, rel: String = "alternate", type: String? = nil, length: Int64? = nil, title: String? = nil,
        hreflang: String? = nil
    ) {
        self.href = href
        self.rel = rel
        self.type = type
        self.length = length
        self.title = title
        self.hreflang = hreflang
    }
}
