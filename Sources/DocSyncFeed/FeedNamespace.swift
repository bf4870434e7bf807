/// Namespace URIs the parsers match (never prefixes).
enum FeedNamespace {
    static let atom = "http://www.w3.org/2005/Atom"
    static let docset = "http://developer.apple.com/rss/docset_extensions"
}
