import DocSyncFeed
import TestSupport
import Testing

/// Dash / Zeal feed XML through the real reader: one row per rule.
@Suite(.timeLimit(.minutes(10)))
struct DashFeedParserTests {
    static let alternates = ["sanfrancisco", "london", "newyork", "tokyo", "frankfurt"].map {
        "http://\($0).kapeli.com/feeds/Swift.tgz"
    }

    static func dash(_ version: String, urls: [String] = [alternates[0]], extra: String = "") -> String {
        "<entry><version>\(version)</version><ios_version>1</ios_version>"
            + urls.map { "<url>\($0)</url>" }.joined() + extra + "</entry>"
    }

    struct Row: Sendable, CustomTestStringConvertible {
        let rule: String
        let xml: String
        var url = "https://kapeli.com/feeds/Swift.xml"
        let entry: FeedEntry
        var testDescription: String { rule }
    }

    static func entry(
        _ version: String?, _ revision: String?, urls: [String] = [alternates[0]], name: String = "Swift",
        sha256: String? = nil, other: [String] = []
    ) -> FeedEntry {
        FeedEntry(
            identifier: name, version: version, revision: revision, archives: urls.map { FeedArchive(url: $0) },
            sha256: sha256, otherVersions: other)
    }

    static let rows: [Row] = [
        Row(rule: "version and revision", xml: dash("13.x/2"), entry: entry("13.x", "2")),
        Row(rule: "revision only", xml: dash("/9"), entry: entry(nil, "9")),
        Row(rule: "non-integer revision", xml: dash("/1.35"), entry: entry(nil, "1.35")),
        Row(rule: "free-form version", xml: dash("SE26"), entry: entry("SE26", nil)),
        Row(rule: "version with a space and parentheses", xml: dash("6.6 (modern)"), entry: entry("6.6 (modern)", nil)),
        Row(
            rule: "five mirrors kept in feed order", xml: dash("5.10/3", urls: alternates),
            entry: entry("5.10", "3", urls: alternates)),
        Row(
            rule: "other-versions names in order",
            xml: dash(
                "5.10",
                extra: "<other-versions><version><name>5.10</name></version>"
                    + "<version><name>5.9</name></version></other-versions>"),
            entry: entry("5.10", nil, other: ["5.10", "5.9"])),
        Row(
            rule: "sha256 validated and lowercased",
            xml: dash("1", extra: "<sha256>\(FeedChecksumSample.upper)</sha256>"),
            entry: entry("1", nil, sha256: FeedChecksumSample.lower)),
        Row(
            rule: "name from the percent-encoded URL stem",
            xml: dash("1"), url: "https://kapeli.com/feeds/C%2B%2B.xml", entry: entry("1", nil, name: "C++")),
        Row(
            rule: "relative mirror URL resolved against the document URL",
            xml: dash("1", urls: ["Swift.tgz"]), entry: entry("1", nil, urls: ["https://kapeli.com/feeds/Swift.tgz"])),
        Row(
            rule: "unknown elements ignored, a second version ignored",
            xml: "<entry><x>y</x><version>2</version><version>3</version><url>\(alternates[0])</url>"
                + "<name>not-other</name></entry>",
            entry: entry("2", nil)),
    ]

    @Test(arguments: rows)
    func parses(_ row: Row) throws {
        let document = try FeedXML.parse(row.xml, url: row.url)
        #expect(document.format == .dash)
        #expect(document.name == row.entry.identifier)
        #expect(document.entries == [row.entry])
    }

    @Test func namesTheDocsetAfterTheFileWhenThereIsNoURL() throws {
        let directory = try TemporaryDirectory("docsync-feed-test")
        defer { directory.remove() }
        let path = directory.write("Android_(Kotlin).xml", Self.dash("13.x/2"))
        let document = try FeedParser.parse(fileAt: path, documentURL: nil)
        #expect(document.name == "Android_(Kotlin)")
        #expect(document.entries.first?.identifier == "Android_(Kotlin)")
    }
}
