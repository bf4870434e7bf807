import Foundation

/// How Zeal reads an installed docset and decides on updates, reimplemented from zealdocs/zeal's sources:
/// `Docset::loadMetadata` (src/libs/registry/docset.cpp), `DocsetsDialog::loadUserFeedList` and the two update checks
/// of `DocsetsDialog` (catalogue: `processDocsetListReply`; user feed: the `DashFeed` reply), and
/// `DocsetMetadata::fromDashFeed` (src/libs/registry/docsetmetadata.cpp). Zeal's Qt calls are mirrored: a missing
/// member reads as "", `revision` is `toString().toInt()` (0 for anything but a decimal string).
struct ZealReader: Equatable {
    var name: String
    var title: String
    var version: String
    var revision: Int
    /// Set only when meta.json contains `feed_url` (`jsonObject.contains("feed_url")`).
    var feedURL: String

    /// `Docset::loadMetadata`; nil when meta.json is absent or not a JSON object (Zeal then falls back to Info.plist).
    init?(docset path: String) {
        guard let data = FileManager.default.contents(atPath: "\(path)/meta.json"),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        name = object["name"] as? String ?? ""
        title = object["title"] as? String ?? ""
        version = object["version"] as? String ?? ""
        revision = Self.toInt(object["revision"] as? String ?? "")
        feedURL = object["feed_url"] as? String ?? ""
    }

    /// `loadUserFeedList`: a docset with a non-empty `feed_url` is a user feed, fetched as a Dash feed on every visit.
    var isUserFeed: Bool { !feedURL.isEmpty }

    /// The catalogue check, for an installed docset whose name the catalogue lists.
    func catalogueOffersUpdate(latest: String, revision: String) -> Bool {
        latest != version || Self.toInt(revision) > self.revision
    }

    /// The user-feed check with the feed's bytes: nil when Zeal says "Invalid docset feed!" (no `<url>`), else
    /// whether an update is shown (`fromDashFeed` never sets a revision: it compares the first raw `<version>`).
    func feedOffersUpdate(_ feed: Data) -> Bool? {
        let parsed = DashFeedReading(feed)
        guard !parsed.urls.isEmpty else { return nil }
        return (parsed.versions.first ?? "") != version
    }

    /// `QString::toInt()`: an optionally signed decimal, else 0.
    static func toInt(_ text: String) -> Int { Int(text) ?? 0 }
}

/// `DocsetMetadata::fromDashFeed`: the text right after each `<version>` and `<url>` start tag (QXmlStreamReader's
/// next token when it is characters), in document order. The fixtures' feeds have no attributes or CDATA.
private struct DashFeedReading {
    var versions: [String] = []
    var urls: [String] = []

    init(_ data: Data) {
        let text = String(decoding: data, as: UTF8.self)
        for match in text.matches(of: /<(version|url)>([^<]*)/) where !match.output.2.isEmpty {
            if match.output.1 == "version" { versions.append(String(match.output.2)) }
            else { urls.append(String(match.output.2)) }
        }
    }
}
