import DocSyncSupport
import Testing

@testable import DocSyncCatalog

/// Which archive URLs a Zeal-shaped catalogue entry yields: an entry that states its archive's `sha256` (a docsync
/// mirror's `catalogue.json`) is authoritative, its own `urls` in order and nothing derived from `[catalog] mirrors`;
/// any other entry (Zeal's API) keeps the derived Kapeli URLs first and its own `urls` after.
@Suite(.timeLimit(.minutes(5))) struct ZealCatalogAuthorityTests {
    static let digest = String(repeating: "ab", count: 32)
    static let alternates = CatalogAlternates(bases: ["https://kapeli.test/feeds"])

    struct Row: Sendable, CustomTestStringConvertible {
        var label: String
        var json: String
        var archives: [String]
        var sha256: String?
        var feedURL: String
        var testDescription: String { label }
    }

    static let rows: [Row] = [
        Row(
            label: "mirror entry: own urls only, sha256 kept",
            json: #"{"name": "Foo", "sha256": "\#(digest)", "feed_url": "http://m.test/feeds/Foo.xml", "#
                + #""urls": ["http://m.test/archives/\#(digest)/Foo.tgz", "http://origin.test/Foo.tgz"]}"#,
            archives: ["http://m.test/archives/\(digest)/Foo.tgz", "http://origin.test/Foo.tgz"], sha256: digest,
            feedURL: "http://m.test/feeds/Foo.xml"),
        Row(
            label: "upper-case digest is normalised",
            json: #"{"name": "Foo", "sha256": "\#(digest.uppercased())", "urls": ["http://m.test/Foo.tgz"]}"#,
            archives: ["http://m.test/Foo.tgz"], sha256: digest, feedURL: "https://kapeli.test/feeds/Foo.xml"),
        Row(
            label: "Zeal API entry: derived first, own urls after",
            json: #"{"name": "Foo", "urls": ["http://campus.test/Foo.tgz"]}"#,
            archives: ["https://kapeli.test/feeds/Foo.tgz", "http://campus.test/Foo.tgz"], sha256: nil,
            feedURL: "https://kapeli.test/feeds/Foo.xml"),
        Row(
            label: "malformed sha256 is not authoritative",
            json: #"{"name": "Foo", "sha256": "abc", "urls": ["http://campus.test/Foo.tgz"]}"#,
            archives: ["https://kapeli.test/feeds/Foo.tgz", "http://campus.test/Foo.tgz"], sha256: nil,
            feedURL: "https://kapeli.test/feeds/Foo.xml"),
        Row(
            label: "sha256 without usable urls: derived",
            json: #"{"name": "Foo", "sha256": "\#(digest)", "urls": ["file:///etc/passwd"]}"#,
            archives: ["https://kapeli.test/feeds/Foo.tgz"], sha256: digest,
            feedURL: "https://kapeli.test/feeds/Foo.xml"),
        Row(
            label: "non-http urls of a mirror entry are dropped",
            json: #"{"name": "Foo", "sha256": "\#(digest)", "urls": ["ftp://m.test/Foo.tgz", "https://m.test/Foo.tgz"]}"#,
            archives: ["https://m.test/Foo.tgz"], sha256: digest, feedURL: "https://kapeli.test/feeds/Foo.xml"),
    ]

    @Test(arguments: rows)
    func archiveURLs(row: Row) throws {
        let catalog = try ZealCatalogParser.parse(
            Array("[\(row.json)]".utf8), alternates: Self.alternates, feedBase: "https://kapeli.test/feeds")
        let entry = try #require(catalog.entries.first)
        #expect(entry.archives == row.archives)
        #expect(entry.sha256 == row.sha256)
        #expect(entry.feedURL == row.feedURL)
    }
}
