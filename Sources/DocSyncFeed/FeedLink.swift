/// An Atom `link` (RFC 4287 §4.2.7) with `href` already resolved against `xml:base` and the document URL.
package struct FeedLink: Sendable, Equatable, Hashable, Codable {
    package var href: String
    /// `alternate` when the element has no `rel`.
    package var rel: String
    package var type: String?
    /// The advisory byte count; nil when absent or not a non-negative integer.
    package var length: Int64?
    package var title: String?
    package var hreflang: String?

    package init(
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
