import DocSyncFeed
import DocSyncSupport
import Testing

@testable import DocSyncCatalog

@Suite(.timeLimit(.minutes(5))) struct CatalogParserTests {
    let alternates = CatalogAlternates(bases: ["https://m1.test/feeds", "https://m2.test/feeds/"])

    @Test func zealCatalogue() throws {
        let catalog = try ZealCatalogParser.parse(
            CatalogFixtures.bytes(CatalogFixtures.zeal), alternates: alternates, feedBase: "https://k.test/feeds")
        #expect(catalog.entries.map(\.name) == ["Python_3", "C++", "JavaScript", "Vim"])
        let python = catalog.entries[0]
        #expect(python.title == "Python 3")
        #expect(python.versions == ["3.12.1", "3.11.4", "3.10.2"])  // `.11.4` completed with the name's suffix
        #expect(python.aliases == ["py3", "python"])
        #expect(python.icon == CatalogFixtures.pngBase64 && python.icon2x == CatalogFixtures.pngBase64)
        #expect(python.extra?.object?["indexFilePath"] == .string("index.html"))
        #expect(python.size == 1234)
        #expect(
            python.archives == [
                "https://m1.test/feeds/Python_3.tgz", "https://m2.test/feeds/Python_3.tgz",
                "http://mirror.example/Python_3.tgz",
            ])
        #expect(python.feedURL == "https://k.test/feeds/Python_3.xml")
        #expect(catalog.entries[1].revision == "2")  // a number in the wild
        // Zeal's `tarix` flag: the publisher's index is at `<archive URL>.tarix` (nil when the entry does not say).
        #expect(catalog.entries.map(\.tarix) == [true, false, nil, nil])
        #expect(catalog.entries[2].versions.isEmpty && catalog.entries[2].latestVersion == nil)
        #expect(catalog.entries[3].source == .cheatsheets)
        #expect(catalog.entries[3].archives.first == "https://m1.test/feeds/zzz/cheatsheets/Vim.tgz")
    }

    @Test(arguments: [
        ("", "empty body"), ("<html><body>Not found</body></html>", "<html>"), ("{\"a\": 1}", "array"),
    ])
    func zealCatalogueRejects(body: String, mention: String) {
        #expect {
            try ZealCatalogParser.parse(CatalogFixtures.bytes(body), catalog: "https://z.test/v1/docsets")
        } throws: { error in
            "\(error)".hasPrefix("https://z.test/v1/docsets: ") && "\(error)".contains(mention)
        }
    }

    @Test func contributions() throws {
        let catalog = try ContribIndexParser.parse(
            CatalogFixtures.bytes(CatalogFixtures.contrib),
            catalog: "https://kapeli.test/feeds/zzz/user_contributed/build/index.json", alternates: alternates)
        #expect(catalog.entries.map(\.name) == ["Jest"])  // an entry without an archive is skipped
        let jest = catalog.entries[0]
        #expect(jest.versions == ["29.7", "27.0"])
        #expect(jest.author == "A. Author" && jest.aliases == ["jestjs"] && jest.icon2x != nil)
        #expect(
            jest.archives == [
                "https://kapeli.test/feeds/zzz/user_contributed/build/Jest/Jest.tgz",
                "https://m1.test/feeds/zzz/user_contributed/build/Jest/Jest.tgz",
                "https://m2.test/feeds/zzz/user_contributed/build/Jest/Jest.tgz",
            ])
        let old = try #require(jest.specificVersions.first { $0.version == "27.0" })
        #expect(
            old.archives.first == "https://kapeli.test/feeds/zzz/user_contributed/build/Jest/versions/27.0/Jest-27.tgz")
    }

    @Test func cheatSheetsWithTrailingCommas() throws {
        let catalog = try CheatsheetIndexParser.parse(
            CatalogFixtures.bytes(CatalogFixtures.cheatsheets), alternates: alternates)
        #expect(catalog.entries.map(\.name) == ["ASCII_Tables", "Vim"])
        #expect(catalog.entries[0].title == "ASCII Tables" && catalog.entries[0].aliases == ["ascii"])
        #expect(
            catalog.entries[1].archives == [
                "https://m1.test/feeds/zzz/cheatsheets/Vim.tgz", "https://m2.test/feeds/zzz/cheatsheets/Vim.tgz",
            ])
    }

    @Test func trailingCommasInsideStringsStay() {
        let text = #"{"a": "x,}", "b": [1, 2,],}"#
        #expect(
            String(decoding: CatalogJSON.strippingTrailingCommas(Array(text.utf8)), as: UTF8.self)
                == #"{"a": "x,}", "b": [1, 2]}"#)
    }

    @Test func kapeliFeedWithOtherVersions() throws {
        let url = "https://k.test/feeds/Python_3.xml"
        let document = try FeedParser.parse(bytes: CatalogFixtures.bytes(CatalogFixtures.kapeliFeed), documentURL: url)
        let entry = try #require(KapeliFeeds.entry(from: document, name: "Python_3", feedURL: url))
        #expect(entry.versions == ["3.12.1", "3.9.6", "2.7"])
        #expect(entry.revision == "2")
        #expect(entry.archives.count == 2)
        let pinned = try #require(CatalogResolver.archives(of: entry, version: ".9.6", alternates: alternates))
        #expect(
            pinned.archives == [
                "http://sanfrancisco.kapeli.com/feeds/zzz/versions/Python_3/3.9.6/Python_3.tgz",
                "http://london.kapeli.com/feeds/zzz/versions/Python_3/3.9.6/Python_3.tgz",
            ])
    }

    @Test func kapeliFeedArchivesFollowTheConfiguredMirrorsFirst() throws {
        let url = "https://k.test/feeds/Python_3.xml"
        let document = try FeedParser.parse(bytes: CatalogFixtures.bytes(CatalogFixtures.kapeliFeed), documentURL: url)
        let campus = CatalogAlternates(bases: ["https://campus.test/kapeli/"])
        let entry = try #require(KapeliFeeds.entry(from: document, name: "Python_3", feedURL: url, alternates: campus))
        #expect(
            entry.archives == [
                "https://campus.test/kapeli/Python_3.tgz", "http://sanfrancisco.kapeli.com/feeds/Python_3.tgz",
                "http://london.kapeli.com/feeds/Python_3.tgz",
            ])
        #expect(entry.listedURLs == Array(entry.archives.dropFirst()), "Zeal's urls: the feed's own")
        #expect(entry.listedFeedURL == nil)
        let pinned = try #require(CatalogResolver.archives(of: entry, version: "2.7", alternates: campus))
        #expect(
            pinned.archives == [
                "https://campus.test/kapeli/zzz/versions/Python_3/2.7/Python_3.tgz",
                "http://sanfrancisco.kapeli.com/feeds/zzz/versions/Python_3/2.7/Python_3.tgz",
                "http://london.kapeli.com/feeds/zzz/versions/Python_3/2.7/Python_3.tgz",
            ])
    }

    @Test(arguments: [
        ("Python_3", ".9.6", "3.9.6"), ("Python_3", "3.9.6", "3.9.6"), ("Python_2", ".7", "2.7"),
        ("Bash", ".1", ".1"), ("NoSuffix_", ".1", ".1"),
    ])
    func versionCompletion(name: String, version: String, expected: String) {
        #expect(KapeliVersion.complete(version, feedName: name) == expected)
    }
}
