import DocSyncFeed
import Foundation
import TestSupport
import Testing

/// `docsync feed parse` as a user runs it: the real executable on the bundled examples and on bad input.
@Suite(
    .enabled(if: Nginx.isInstalled, "nginx is not installed (scripts/bootstrap installs it)"),
    .timeLimit(.minutes(10)), .blockingWaits)
struct FeedCommandLineTests {
    static let examples = [
        "cups-docsetutil.atom", "vendor-multi-version.atom", "Swift.xml", "C++.xml", "Android_(Kotlin).xml",
    ]

    static let documentKeys: Set = ["schema", "format", "id", "title", "updated", "links", "entries"]
    static let entryKeys: Set = [
        "id", "title", "updated", "identifier", "version", "revision", "links", "archives", "sha256",
    ]
    static let linkKeys: Set = ["href", "rel", "type", "length", "title", "hreflang"]
    static let archiveKeys: Set = ["url", "type", "length"]

    @Test func everyExampleIsListed() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: FeedCommandLine.feedsDirectory)
        #expect(Set(files.filter { $0 != "README.md" }) == Set(Self.examples))
    }

    @Test(arguments: examples)
    func printsTheJSONContract(_ name: String) throws {
        let path = FeedCommandLine.feedsDirectory + "/" + name
        let result = try FeedCommandLine.run(["feed", "parse", path, "--json"])
        #expect(result.status == 0)
        #expect(result.standardError.isEmpty)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let expected = try FeedParser.parse(fileAt: path, documentURL: nil)

        #expect(Set(object.keys).isSubset(of: Self.documentKeys))
        #expect(object["schema"] as? Int == 1)
        #expect(object["format"] as? String == expected.format.rawValue)
        Self.checkDate(object["updated"], expected.updated)
        try Self.checkLinks(object["links"], expected.links)
        let entries = try #require(object["entries"] as? [[String: Any]])
        #expect(entries.count == expected.entries.count)
        for (entry, wanted) in zip(entries, expected.entries) {
            #expect(Set(entry.keys).isSubset(of: Self.entryKeys))
            #expect(entry["id"] as? String == wanted.id)
            #expect(entry["title"] as? String == wanted.title)
            #expect(entry["identifier"] as? String == wanted.identifier)
            #expect(entry["version"] as? String == wanted.version)
            #expect(entry["revision"] as? String == wanted.revision)
            #expect(entry["sha256"] as? String == wanted.sha256)
            Self.checkDate(entry["updated"], wanted.updated)
            try Self.checkLinks(entry["links"], wanted.links)
            let archives = try #require(entry["archives"] as? [[String: Any]])
            #expect(!archives.isEmpty, "every example entry offers an archive")
            #expect(archives.map { $0["url"] as? String } == wanted.archives.map(\.url))
            for (archive, wantedArchive) in zip(archives, wanted.archives) {
                #expect(Set(archive.keys).isSubset(of: Self.archiveKeys))
                Self.checkLength(archive["length"], wantedArchive.length)
            }
        }
    }

    @Test func printsATable() throws {
        let result = try FeedCommandLine.run(["feed", "parse", FeedCommandLine.feedsDirectory + "/Swift.xml"])
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix("dash feed Swift: 1 entry\nIDENTIFIER"))
        #expect(result.standardOutput.contains("\nSwift       5.10     3  "))
        #expect(result.standardOutput.contains("http://frankfurt.kapeli.com/feeds/Swift.tgz"))
    }

    @Test func exits65WithThePositionOnStandardErrorForABadFeed() throws {
        let directory = try TemporaryDirectory("docsync-feed-test")
        defer { directory.remove() }
        let path = directory.write("bad.atom", "<feed xmlns=\"http://www.w3.org/2005/Atom\">\n<entry><id>x</entry>")
        for arguments in [["feed", "parse", path], ["feed", "parse", path, "--json"]] {
            let result = try FeedCommandLine.run(arguments)
            #expect(result.status == 65)
            #expect(result.standardOutput.isEmpty)
            #expect(
                result.standardError
                    == ("docsync: \(path):2:21: not well-formed XML: Opening and ending tag mismatch: id line 2 and entry (libxml2 error 76)\n")
            )
        }
    }

    /// libxml2 raises encoding errors outside the parser, through a handler that would print to stderr.
    @Test func printsOnlyItsOwnMessageForAnUndecodableFeed() throws {
        let directory = try TemporaryDirectory("docsync-feed-test")
        defer { directory.remove() }
        let path = directory.write(
            "sjis.atom",
            bytes: Array("<?xml version=\"1.0\" encoding=\"Shift_JIS\"?>\n<feed><title>".utf8) + [0xFF, 0xFF]
                + Array("</title></feed>".utf8))
        let result = try FeedCommandLine.run(["feed", "parse", path])
        #expect(result.status == 65)
        #expect(
            result.standardError
                == "docsync: \(path): not well-formed XML: input conversion failed due to input error, "
                + "bytes 0xFF 0xFF 0x3C 0x2F (libxml2 error 6003)\n")
    }

    @Test func neverPrintsAFileNamedByAnEntity() throws {
        let directory = try TemporaryDirectory("docsync-feed-test")
        defer { directory.remove() }
        let secret = "docsync-secret-\(UUID().uuidString)"
        let secretPath = directory.write("secret.txt", secret)
        let path = directory.write(
            "xxe.atom",
            "<!DOCTYPE feed [<!ENTITY xxe SYSTEM \"file://\(secretPath)\">]>"
                + "<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>&xxe;</title></feed>")
        let result = try FeedCommandLine.run(["feed", "parse", path, "--json"])
        #expect(result.status == 65)
        #expect(result.standardError == "docsync: \(path):1:1: a DOCTYPE is not allowed in a feed\n")
        #expect(!result.standardOutput.contains(secret) && !result.standardError.contains(secret))
    }

    @Test func resolvesAgainstTheBaseURL() throws {
        let directory = try TemporaryDirectory("docsync-feed-test")
        defer { directory.remove() }
        let path = directory.write(
            "rel.atom",
            "<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry><link rel=\"enclosure\" href=\"../d/a.xar\"/></entry></feed>"
        )
        let result = try FeedCommandLine.run([
            "feed", "parse", path, "--base-url", "https://h.example/feeds/x.atom", "--json",
        ])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("\"url\": \"https://h.example/d/a.xar\""))
        let relative = try FeedCommandLine.run(["feed", "parse", path, "--base-url", "feeds/"])
        #expect(relative.status == 64)
        #expect(relative.standardError.contains("--base-url must be an absolute URL"))
    }

    @Test func refusesAFeedLargerThanMaxBytes() throws {
        let path = FeedCommandLine.feedsDirectory + "/Swift.xml"
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        let refused = try FeedCommandLine.run(["feed", "parse", path, "--max-bytes", "\(size - 1)"])
        #expect(refused.status == 65)
        #expect(refused.standardError == "docsync: \(path): the feed is larger than the limit of \(size - 1) bytes\n")
        let accepted = try FeedCommandLine.run(["feed", "parse", path, "--max-bytes", "\(size)", "--json"])
        #expect(accepted.status == 0)
        let invalid = try FeedCommandLine.run(["feed", "parse", path, "--max-bytes", "0"])
        #expect(invalid.status == 64)
        #expect(invalid.standardError.contains("--max-bytes must be a positive number of bytes"))
    }

    @Test func exits74ForAMissingFile() throws {
        let result = try FeedCommandLine.run(["feed", "parse", "/nonexistent/feed.xml"])
        #expect(result.status == 74)
        #expect(
            result.standardError
                == "docsync: /nonexistent/feed.xml: cannot read the file: No such file or directory (errno 2)\n")
    }

    @Test func fetchesOverHTTP() throws {
        let nginx = try Nginx(root: FeedCommandLine.feedsDirectory)
        defer { nginx.stop() }
        let result = try FeedCommandLine.run(["feed", "parse", nginx.url("C%2B%2B.xml"), "--json"])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("\"identifier\": \"C++\""))
        #expect(result.standardOutput.contains("\"revision\": \"9\""))
        let missing = try FeedCommandLine.run(["feed", "parse", nginx.url("missing.xml")])
        #expect(missing.status == 69)
        #expect(missing.standardError == "docsync: \(nginx.url("missing.xml")): fetch failed: HTTP status 404\n")
    }

    static func checkDate(_ value: Any?, _ expected: Date?) {
        guard let expected else { return #expect(value == nil) }
        let text = value as? String
        #expect(text == FeedDate.format(expected))
        #expect(text?.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil)
    }

    static func checkLength(_ value: Any?, _ expected: Int64?) {
        guard let expected else { return #expect(value == nil) }
        #expect((value as? NSNumber)?.int64Value == expected)
        #expect(!(value is String))
    }

    static func checkLinks(_ value: Any?, _ expected: [FeedLink]) throws {
        let links = try #require(value as? [[String: Any]])
        #expect(links.count == expected.count)
        for (link, wanted) in zip(links, expected) {
            #expect(Set(link.keys).isSubset(of: linkKeys))
            #expect(link["href"] as? String == wanted.href)
            #expect(link["rel"] as? String == wanted.rel)
            #expect(link["type"] as? String == wanted.type)
            #expect(link["title"] as? String == wanted.title)
            #expect(link["hreflang"] as? String == wanted.hreflang)
            checkLength(link["length"], wanted.length)
        }
    }
}
