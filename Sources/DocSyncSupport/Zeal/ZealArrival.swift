/// How a docset arrived, in Zeal's terms: it decides which members Zeal's own `DocsetMetadata::save`
/// (zealdocs/zeal `src/libs/registry/docsetmetadata.cpp`) would have written into `meta.json`, so that Zeal's
/// `Docset::loadMetadata` and `DocsetsDialog`'s update checks read a docsync install as one of its own.
///
/// - `catalog`: from a catalogue (Zeal's, or one built on Kapeli's feeds): `feed_url` only when the catalogue entry
///   itself lists one, `urls` the entry's own `urls`, `revision` when > 0. A docset with a `feed_url` is a *user
///   feed* to Zeal (`loadUserFeedList`), compared with that feed's raw `<version>`: a catalogue docset never gets one
///   the catalogue did not give.
/// - `dashFeed`: a Dash feed added by URL (Zeal's "Add feed"): `feed_url` the feed's URL, `version` the feed's raw
///   `VERSION/REVISION` text (Zeal compares it with the feed's first `<version>`), no `revision`, `urls` the
///   feed's `<url>`s in feed order.
/// - `atomFeed`: Zeal cannot read Atom feeds: no `feed_url` (Zeal would report "Invalid docset feed!" on every
///   update check), no `urls`.
/// - `file`: a local archive (`docsync install`): name, title, version, revision as given.
///
/// Pure data, shared by the lock, the fleet mirror's manifest and the installer.
package struct ZealArrival: Codable, Sendable, Equatable {
    package enum Kind: String, Codable, Sendable, CaseIterable {
        case catalog
        case dashFeed = "dash-feed"
        case atomFeed = "atom-feed"
        case file
    }

    package var kind: Kind
    /// Zeal's `feed_url` (http or https only; a local feed path is not written: Zeal could not fetch it).
    package var feedURL: String?
    /// Zeal's `urls`, in the order the catalogue or feed lists them (never an order learned on one host).
    package var urls: [String]

    package init(kind: Kind, feedURL: String? = nil, urls: [String] = []) {
        self.kind = kind
        self.feedURL = feedURL.flatMap { $0.hasPrefix("http://") || $0.hasPrefix("https://") ? $0 : nil }
        self.urls = urls
    }

    package static let file = ZealArrival(kind: .file)

    enum CodingKeys: String, CodingKey {
        case kind, urls
        case feedURL = "feed_url"
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kind = try container.decode(Kind.self, forKey: .kind)
        feedURL = try container.decodeIfPresent(String.self, forKey: .feedURL)
        urls = try container.decodeIfPresent([String].self, forKey: .urls) ?? []
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encodeIfPresent(feedURL, forKey: .feedURL)
        if !urls.isEmpty { try container.encode(urls, forKey: .urls) }
    }
}
