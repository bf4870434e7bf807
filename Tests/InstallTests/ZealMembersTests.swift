@testable import DocSyncInstall
import DocSyncSupport
import Foundation
import Testing

/// Zeal's members of meta.json for each way a docset arrives (`DocsetMetadata.init(request:record:)`, the one place
/// meta.json is written), as zealdocs/zeal's `DocsetMetadata::save` would write them. Pure.
@Suite(.timeLimit(.minutes(10))) struct ZealMembersTests {
    struct Row: Sendable, CustomStringConvertible {
        var arrival: ZealArrival
        var version: String?
        var revision: String?
        /// Expected `version`, `revision`, `feed_url`, `urls`, `title`.
        var expected: [String: String]
        var description: String { "\(arrival.kind) \(version ?? "-")/\(revision ?? "-")" }
    }

    static let feed = "https://user:secret@feeds.example/ActionScript.xml"
    static let urls = ["http://a.example/ActionScript.tgz", "http://b.example/ActionScript.tgz"]

    @Test(arguments: [
        Row(
            arrival: ZealArrival(kind: .catalog), version: "3", revision: "27",
            expected: ["version": "3", "revision": "27", "title": "Action Script"]),
        Row(
            arrival: ZealArrival(kind: .catalog, feedURL: "https://k.example/A.xml", urls: urls), version: "3",
            revision: "0",
            expected: ["version": "3", "feed_url": "https://k.example/A.xml", "urls": urls.joined(separator: " "),
                "title": "Action Script"]),
        Row(
            arrival: ZealArrival(kind: .dashFeed, feedURL: feed, urls: urls), version: "3", revision: "27",
            expected: ["version": "3/27", "feed_url": "https://user:***@feeds.example/ActionScript.xml",
                "urls": urls.joined(separator: " "), "title": "ActionScript"]),
        Row(
            arrival: ZealArrival(kind: .dashFeed, feedURL: "/srv/feeds/ActionScript.xml", urls: urls), version: "3",
            revision: nil, expected: ["version": "3", "urls": urls.joined(separator: " "), "title": "ActionScript"]),
        Row(
            arrival: ZealArrival(kind: .atomFeed, feedURL: feed, urls: urls), version: "3", revision: "2",
            expected: ["version": "3", "title": "Action Script"]),
        Row(arrival: .file, version: nil, revision: "x", expected: ["title": "Action Script"]),
    ])
    func members(_ row: Row) throws {
        var request = InstallRequest(name: "ActionScript", title: "Action Script", version: row.version,
            revision: row.revision, feedURL: "catalog:zeal/ActionScript", urls: ["https://mirror.example/learned"])
        request.arrival = row.arrival
        let record = DocsetMetadata.Record(
            identifier: nil, version: nil, archiveSHA256: "ab", archiveSize: 1, unpackedBytes: 2, fileCount: 3)
        let meta = DocsetMetadata(request: request, record: record)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(meta.encoded())) as? [String: Any])
        #expect(object["name"] as? String == "ActionScript")
        #expect(object["title"] as? String == row.expected["title"])
        #expect(object["version"] as? String == row.expected["version"])
        #expect(object["revision"] as? String == row.expected["revision"])
        #expect(object["feed_url"] as? String == row.expected["feed_url"])
        #expect((object["urls"] as? [String])?.joined(separator: " ") == row.expected["urls"])
        // docsync's record: the arrival and its own version form; nothing host-specific.
        let docsync = try #require((object["extra"] as? [String: Any])?["docsync"] as? [String: Any])
        #expect(docsync["arrival"] as? String == row.arrival.kind.rawValue)
        for member in ["installed_at", "source_url", "origin", "feed", "urls"] { #expect(docsync[member] == nil) }
        #expect(!String(decoding: meta.encoded(), as: UTF8.self).contains("mirror.example"))
    }
}
