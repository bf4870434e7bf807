import DocSync
import Foundation
import TestSupport
import Testing

/// Names and versions from a feed or the config that are not one safe path component are refused with a
/// message naming their source; credentials in feed and archive URLs are never printed or stored.
/// What the `docsync` binary prints is the subject here, so the binary runs the syncs: a refused version from a local
/// feed file (refused before any request), credentials in URLs against a real nginx (the URLs curl is given).
@Suite(
    .enabled(if: Nginx.isInstalled, "nginx is not installed (scripts/bootstrap installs it)"),
    .timeLimit(.minutes(10)), .blockingWaits)
struct UntrustedFeedTextTests {
    @Test func aFeedVersionWithControlCharactersIsSkippedAndPrintedEscaped() throws {
        let h = try SyncHarness.inMemory()
        try h.publishArchive(try DocsetFixture.make(version: "1.0"), as: "A.tgz", folder: "A")
        try h.writeAtomFeed(
            "f.atom",
            [.init(identifier: "org.a", title: "A", version: "1.0&#x9B;31m&#10;evil", archive: h.url("A.tgz"))])
        try h.writeConfig(feeds: ["\(h.www)/f.atom"])
        let result = try h.run(["sync"])
        #expect(result.status == 3, "\(result.standardError)")
        #expect(result.standardOutput.contains("the feed's version"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("\\u{9B}31m"), "\(result.standardOutput)")
        #expect(!result.standardOutput.unicodeScalars.contains("\u{9B}"))
        #expect(!FileManager.default.fileExists(atPath: "\(h.root)/A.docset"))
    }

    @Test func theConfigKeyNameMustBeASafeComponent() throws {
        let h = try SyncHarness.inMemory()  // refused while the configuration loads: no server is asked
        try "[[feed]]\nurl = \"f.xml\"\nname = \"..\"\n".write(toFile: h.configPath, atomically: true, encoding: .utf8)
        let result = try h.run(["status"])
        #expect(result.status == 78)
        #expect(result.standardError.contains("feed[1].name"), "\(result.standardError)")
    }

    @Test func credentialsInFeedAndArchiveURLsAreNeverPrintedOrStored() throws {
        let h = try SyncHarness()
        try h.publishArchive(try DocsetFixture.make(version: "1.0"), as: "A.tgz", folder: "A")
        let secretArchive = h.nginx.url("A.tgz").replacingOccurrences(of: "://", with: "://bob:archive-secret@")
        try h.writeAtomFeed(
            "f.atom",
            [.init(identifier: "org.a", title: "A", version: "1.0", archive: secretArchive + "?token=query-secret")])
        let feed = h.nginx.url("f.atom").replacingOccurrences(of: "://", with: "://alice:feed-secret@")
        try h.writeConfig(feeds: [feed])
        let sync = try h.run(["sync", "--json"])
        #expect(sync.status == 0, "\(sync.standardError)")
        let text = try h.run(["sync", "--refresh"])
        let status = try h.run(["status"])
        let statusJSON = try h.run(["status", "--json"])
        for output in [sync, text, status, statusJSON] {
            for secret in ["feed-secret", "archive-secret", "query-secret"] {
                #expect(!output.standardOutput.contains(secret), "printed \(secret): \(output.standardOutput)")
                #expect(!output.standardError.contains(secret), "printed \(secret): \(output.standardError)")
            }
        }
        #expect(sync.standardOutput.contains("alice:***@"), "\(sync.standardOutput)")
        // Nothing docsync stores holds a secret: root (meta.json, manifests), state (feed cache entries,
        // last-sync.json), staging (journals). The cached feed body is the publisher's feed itself, kept verbatim
        // (mode 0600) for conditional requests.
        let stored = try FileManager.default.subpathsOfDirectory(atPath: h.dir.path).filter {
            !$0.hasPrefix("www/") && $0 != "docsync.toml" && !($0.hasPrefix("state/feeds/") && $0.hasSuffix(".xml"))
        }
        for path in stored {
            guard let data = FileManager.default.contents(atPath: h.dir.appending(path)) else { continue }
            let content = String(decoding: data, as: UTF8.self)
            for secret in ["feed-secret", "archive-secret", "query-secret"] {
                #expect(!content.contains(secret), "\(path) stores \(secret)")
            }
        }
    }
}
