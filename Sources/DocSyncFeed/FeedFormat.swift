/// The two feed dialects docsync reads. Detected from the root element, never from the file name.
package enum FeedFormat: String, Sendable, Equatable, Hashable, Codable {
    /// Atom 1.0 (RFC 4287) with Apple's docset extension (`http://developer.apple.com/rss/docset_extensions`).
    case atom
    /// Dash / Zeal feed XML: one `<entry>` with a `<version>` and mirror `<url>`s.
    case dash
}
