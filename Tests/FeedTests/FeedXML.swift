import DocSyncFeed
import Foundation

/// Builders for the small feed documents the table tests parse.
enum FeedXML {
    static let atomNamespace = "http://www.w3.org/2005/Atom"
    static let docsetNamespace = "http://developer.apple.com/rss/docset_extensions"

    /// An Atom feed with the conventional `docset:` prefix around `body`.
    static func atom(_ body: String, attributes: String = "") -> String {
        "<feed xmlns=\"\(atomNamespace)\" xmlns:docset=\"\(docsetNamespace)\" \(attributes)>\(body)</feed>"
    }

    /// One `<entry>` with a single enclosure link (the common case).
    static func entry(_ body: String, attributes: String = "") -> String {
        "<entry \(attributes)>\(body)</entry>"
    }

    static func parse(_ xml: String, url: String? = nil, limits: FeedLimits = .init()) throws(FeedError)
        -> FeedDocument
    {
        try FeedParser.parse(bytes: Array(xml.utf8), documentURL: url, limits: limits)
    }

    static func date(_ epoch: Double) -> Date { Date(timeIntervalSince1970: epoch) }
}
