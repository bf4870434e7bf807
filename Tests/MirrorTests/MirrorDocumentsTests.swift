import DocSync
import DocSyncFeed
import DocSyncMirror
import DocSyncSupport
import Foundation
import TestSupport
import Testing

/// The published documents read back with docsync's own parsers, and the bundle's round trip and refusals.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct MirrorDocumentsTests {
    static let new = MirrorVersion(
        name: "C++", title: "C++", version: "2.0", revision: "3", sha256: String(repeating: "b", count: 64),
        size: 20, upstream: ["http://up.example/feeds/C++.tar.xz", "http://up2.example/C++.tar.xz"])
    static let old = MirrorVersion(
        name: "C++", title: "C++", version: "1.0", sha256: String(repeating: "a", count: 64), size: 10,
        upstream: ["http://up.example/feeds/C++.tar.xz"])
    static let documents = MirrorDocuments(
        baseURL: "https://m.example/docsets/", state: MirrorState(docsets: ["C++": [new, old]]))

    @Test func theDashFeedNamesTheMirrorCopyFirstThenUpstreamWithItsChecksum() throws {
        let xml = Self.documents.dashFeed("C++")
        let parsed = try FeedParser.parse(
            bytes: Array(xml.utf8), documentURL: "https://m.example/docsets/feeds/C++.xml")
        let entry = try #require(parsed.entries.first)
        #expect(entry.version == "2.0" && entry.revision == "3" && entry.sha256 == Self.new.sha256)
        #expect(
            entry.archives.map(\.url) == [
                "https://m.example/docsets/archives/\(Self.new.sha256)/C++.tar.xz",
                "http://up.example/feeds/C++.tar.xz",
                "http://up2.example/C++.tar.xz",
            ])
        #expect(entry.otherVersions == ["1.0"])
    }

    @Test func theZealFeedNamesOnlyTheMirrorsCopyAndNoOtherVersions() throws {
        let xml = Self.documents.zealFeed("C++")
        let parsed = try FeedParser.parse(
            bytes: Array(xml.utf8), documentURL: "https://m.example/docsets/feeds/zeal/C++.xml")
        let entry = try #require(parsed.entries.first)
        #expect(entry.version == "2.0" && entry.revision == "3")
        // Zeal picks a random <url>: only the mirror's copy is offered; and it would read a <name> inside
        // <other-versions> as the docset's name.
        #expect(entry.archives.map(\.url) == ["https://m.example/docsets/archives/\(Self.new.sha256)/C++.tar.xz"])
        #expect(!xml.contains("<name>") && !xml.contains("other-versions"))
        #expect(MirrorDocuments.zealFeedPath("C++") == "feeds/zeal/C++.xml")
    }

    @Test func theAtomFeedHasAnEntryPerKeptVersion() throws {
        let xml = Self.documents.atomFeed(updated: Date(timeIntervalSince1970: 0))
        let parsed = try FeedParser.parse(bytes: Array(xml.utf8), documentURL: "https://m.example/docsets/docsets.atom")
        #expect(parsed.entries.map(\.sha256) == [Self.new.sha256, Self.old.sha256])
        #expect(parsed.entries.map { $0.archives.first?.length } == [20, 10])
    }

    @Test func theCatalogueHasZealsShape() throws {
        let items = try JSONSerialization.jsonObject(with: Data(Self.documents.catalogue())) as? [[String: Any]]
        let item = try #require(items?.first)
        #expect(item["name"] as? String == "C++" && item["versions"] as? [String] == ["2.0", "1.0"])
        #expect(
            item["revision"] as? String == "3"
                && item["feed_url"] as? String == "https://m.example/docsets/feeds/C++.xml")
    }

    @Test func aBundleRoundTripsAndOnlyTheTreesNamesAreAccepted() throws {
        let dir = try TemporaryDirectory("bundle")
        defer { dir.remove() }
        let tree = dir.appending("tree")
        let long = String(repeating: "x", count: 90)
        for (path, text) in [
            ("manifest.lock", "{}"), ("feeds/Go.xml", "<entry/>"), ("feeds/zeal/Go.xml", "<entry/>"),
            ("archives/\(Self.new.sha256)/\(long).tgz", String(repeating: "z", count: 1000)),
            ("archives/\(Self.old.sha256)/Go.tgz", "retired"),
        ] {
            try FileManager.default.createDirectory(
                atPath: (dir.appending("tree/\(path)") as NSString).deletingLastPathComponent,
                withIntermediateDirectories: true)
            try text.write(toFile: dir.appending("tree/\(path)"), atomically: false, encoding: .utf8)
        }
        // By default only the archives the manifest names; everything in the tree when asked.
        #expect(try MirrorBundle.files(in: tree).count == 5)
        let files = try MirrorBundle.files(in: tree, archives: [Self.new.sha256])
        #expect(files.first == "manifest.lock" && files.count == 4 && files.contains("feeds/zeal/Go.xml"))
        #expect(!files.contains { $0.hasPrefix("archives/\(Self.old.sha256)") })
        try MirrorBundle.write(directory: tree, files: files, to: dir.appending("b.tar"))
        let listed = try Tool.run("/usr/bin/tar", ["-tf", dir.appending("b.tar")])  // GNU tar reads it
        #expect(listed.standardOutput.split(separator: "\n").map(String.init) == files)
        try MirrorBundle.unpack(dir.appending("b.tar"), into: dir.appending("out"))
        for file in files {
            #expect(
                FileManager.default.contents(atPath: "\(tree)/\(file)")
                    == FileManager.default.contents(atPath: dir.appending("out/\(file)")))
        }
        // A tar with any other name (here `../evil`) is refused before anything is written outside.
        try FileManager.default.createDirectory(atPath: dir.appending("x/sub"), withIntermediateDirectories: true)
        try "evil".write(toFile: dir.appending("x/evil"), atomically: false, encoding: .utf8)
        _ = try Tool.run(
            "/usr/bin/tar",
            ["-cf", dir.appending("evil.tar"), "-C", dir.appending("x/sub"), "--format=ustar", "../evil"])
        #expect(throws: MirrorError.self) {
            try MirrorBundle.unpack(dir.appending("evil.tar"), into: dir.appending("out2"))
        }
        #expect(!FileManager.default.fileExists(atPath: dir.appending("evil")))
    }
}
