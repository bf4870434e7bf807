import DocSync
import Foundation
import TestSupport
import Testing

/// `docsync sync` end to end: the real binary against a real nginx on loopback. `status` and `remove`, which ask no
/// server, run the binary after an in-process sync against a `MemoryOrigin`.
@Suite(
    .enabled(if: Nginx.isInstalled, "nginx is not installed (scripts/bootstrap installs it)"),
    .timeLimit(.minutes(10)), .blockingWaits)
struct SyncEndToEndTests {
    @Test func firstSyncInstallsAndTheSecondTransfersNoBodyBytes() throws {
        let h = try SyncHarness()
        let alpha = try DocsetFixture.make(version: "1.0", documents: 12, indexRows: 7)
        let beta = try DocsetFixture.make(version: "9", documents: 5, indexRows: 3)
        let sha = try h.publishArchive(alpha, as: "Alpha-1.0.tgz", folder: "Alpha")
        try h.publishArchive(beta, as: "Beta.tgz", folder: "Beta")
        try h.writeAtomFeed(
            "apple.atom",
            [.init(identifier: "org.alpha", title: "Alpha", version: "1.0", archive: "Alpha-1.0.tgz", sha256: sha)])
        try h.writeDashFeed("Beta.xml", version: "/9", alternates: [h.nginx.url("missing.tgz"), h.nginx.url("Beta.tgz")])
        try h.writeConfig(feeds: ["apple.atom", "Beta.xml"])

        let first = try h.run(["sync", "--json"])
        #expect(first.status == 0, "\(first.standardError)")
        let events = SyncHarness.events(first)
        #expect(SyncHarness.names(events, "installed") == ["Alpha", "Beta"])
        #expect(h.installedManifest("Alpha") == alpha.expectedManifest)
        #expect(h.installedManifest("Beta") == beta.expectedManifest)  // the second mirror, after a 404
        #expect(events.last?["event"] as? String == "summary")

        let before = h.nginx.accessLog().count
        let second = try h.run(["sync", "--json"])
        #expect(second.status == 0, "\(second.standardError)")
        #expect(SyncHarness.names(SyncHarness.events(second), "unchanged") == ["Alpha", "Beta"])
        let requests = h.nginx.accessLog().dropFirst(before)
        #expect(requests.count == 2, "only the two feeds are asked: \(requests)")
        #expect(requests.allSatisfy { $0.status == 304 && $0.bodyBytesSent == 0 }, "\(requests)")
    }

    @Test func aFeedFreshByCacheControlIsNotRequestedAgain() throws {
        let h = try SyncHarness(locations: "location ~ \\.atom$ { add_header Cache-Control \"max-age=300\"; }")
        let fixture = try DocsetFixture.make(version: "1.0")
        try h.publishArchive(fixture, as: "A.tgz", folder: "A")
        try h.writeAtomFeed("f.atom", [.init(identifier: "org.a", title: "A", version: "1.0", archive: "A.tgz")])
        try h.writeConfig(feeds: ["f.atom"])
        #expect(try h.run(["sync"]).status == 0)
        let before = h.nginx.accessLog().count
        let again = try h.run(["sync", "--json"])
        #expect(again.status == 0)
        #expect(h.nginx.accessLog().count == before, "a fresh feed costs no request")
        #expect(
            SyncHarness.events(again).first { $0["event"] as? String == "feed-checked" }?["source"] as? String
                == "fresh")
        let forced = try h.run(["sync", "--refresh", "--json"])
        #expect(forced.status == 0)
        let asked = h.nginx.waitForAccessLog { $0.count > before }.dropFirst(before)
        #expect(asked.map(\.status) == [304], "--refresh asks, conditionally")
    }

    @Test func anUpdateSwapsInWhileAReaderHoldsTheOldVersionOpen() throws {
        let h = try SyncHarness()
        let v1 = try DocsetFixture.make(version: "1.0", indexRows: 4)
        let v2 = try DocsetFixture.make(version: "2.0", indexRows: 9)
        try h.publishArchive(v1, as: "A-1.tgz", folder: "A")
        try h.publishArchive(v2, as: "A-2.tgz", folder: "A")
        try h.writeAtomFeed("f.atom", [.init(identifier: "org.a", title: "A", version: "1.0", archive: "A-1.tgz")])
        try h.writeConfig(feeds: ["f.atom"])
        #expect(try h.run(["sync"]).status == 0)

        let engine = SyncEngine(configuration: try h.configuration())
        let old = try #require(try engine.installedDocsets().first { $0.name == "A" })
        let page = "\(old.path)/Contents/Resources/Documents/page0.html"
        let reader = try #require(FileHandle(forReadingAtPath: page))
        defer { try? reader.close() }

        try h.writeAtomFeed(
            "f.atom",
            [
                .init(identifier: "org.a", title: "A", version: "1.0", archive: "A-1.tgz"),
                .init(identifier: "org.a", title: "A", version: "2.0", archive: "A-2.tgz"),
            ])
        let update = try h.run(["sync", "--json"])
        #expect(update.status == 0, "\(update.standardError)")
        let updated = SyncHarness.events(update).first { $0["event"] as? String == "updated" }
        #expect(updated?["from"] as? String == "1.0" && updated?["version"] as? String == "2.0")
        #expect(h.installedManifest("A") == v2.expectedManifest)
        // The reader's open file and its resolved path still show version 1.0 (kept for the grace period).
        let text = String(decoding: try reader.readToEnd() ?? Data(), as: UTF8.self)
        #expect(text.contains("1.0 page 0"))
        #expect(try String(contentsOfFile: page, encoding: .utf8).contains("1.0 page 0"))
        let now = try #require(try engine.installedDocsets().first { $0.name == "A" })
        #expect(now.path != old.path && now.version == "2.0")
        #expect(SQLiteIndex.count(now.indexPath) == 9 && SQLiteIndex.count(old.indexPath) == 4)
    }

    @Test func aBrokenFeedAndACorruptArchiveAreReportedWhileTheOthersInstall() throws {
        let h = try SyncHarness()
        let good = try DocsetFixture.make(version: "1.0")
        try h.publishArchive(good, as: "Good.tgz", folder: "Good")
        var corrupt = try Data(contentsOf: URL(fileURLWithPath: "\(h.www)/Good.tgz"))
        corrupt.replaceSubrange(
            corrupt.count / 2..<corrupt.count, with: Data(repeating: 0x5A, count: corrupt.count / 2))
        try corrupt.write(to: URL(fileURLWithPath: "\(h.www)/Bad.tgz"))
        try h.writeAtomFeed(
            "f.atom",
            [
                .init(identifier: "org.good", title: "Good", version: "1.0", archive: "Good.tgz"),
                .init(identifier: "org.bad", title: "Bad", version: "1.0", archive: "Bad.tgz"),
                .init(
                    identifier: "org.wrongsum", title: "WrongSum", version: "1.0", archive: "Good.tgz",
                    sha256: String(repeating: "ab", count: 32)),
            ])
        try "<feed><entry>unclosed".write(toFile: "\(h.www)/broken.atom", atomically: true, encoding: .utf8)
        try h.writeConfig(feeds: ["broken.atom", "f.atom", "absent.atom"])

        let result = try h.run(["sync", "--json"])
        #expect(result.status == 3, "some failed, the rest synced: \(result.standardError)")
        let events = SyncHarness.events(result)
        #expect(SyncHarness.names(events, "installed") == ["Good"])
        #expect(SyncHarness.names(events, "failed") == ["Bad", "WrongSum"])
        let failedFeeds = events.filter { $0["event"] as? String == "feed-failed" }.compactMap { $0["feed"] as? String }
        #expect(failedFeeds.count == 2 && failedFeeds.contains { $0.hasSuffix("broken.atom") })
        #expect(failedFeeds.contains { $0.hasSuffix("absent.atom") })
        let wrongSum =
            (events.first { $0["name"] as? String == "WrongSum" && $0["event"] as? String == "failed" }?["failure"]
            as? [String: Any])?["message"] as? String ?? ""
        #expect(
            wrongSum.contains(String(repeating: "ab", count: 32)), "the error names the expected digest: \(wrongSum)")
        #expect(h.installedManifest("Good") == good.expectedManifest)
        let visible = try FileManager.default.contentsOfDirectory(atPath: h.root).filter { !$0.hasPrefix(".") }
        #expect(visible == ["Good.docset"], "nothing of the failed docsets is visible: \(visible)")
    }

    @Test func dryRunPlansWithoutTouchingAnythingAndOnlyLimitsTheRun() throws {
        let h = try SyncHarness()
        try h.publishArchive(try DocsetFixture.make(version: "1"), as: "A.tgz", folder: "A")
        try h.publishArchive(try DocsetFixture.make(version: "1"), as: "B.tgz", folder: "B")
        try h.writeAtomFeed(
            "f.atom",
            [
                .init(identifier: "org.a", title: "A", version: "1", archive: "A.tgz"),
                .init(identifier: "org.b", title: "B", version: "1", archive: "B.tgz"),
            ])
        try h.writeConfig(feeds: ["f.atom"])
        let dry = try h.run(["sync", "--dry-run"])
        #expect(dry.status == 0)
        #expect(dry.standardOutput.contains("install   A 1 from") && dry.standardOutput.contains("install   B 1 from"))
        #expect(!FileManager.default.fileExists(atPath: "\(h.root)/A.docset"))
        #expect(h.nginx.accessLog().allSatisfy { $0.uri.hasSuffix(".atom") })
        let only = try h.run(["sync", "--only", "B", "--json"])
        #expect(SyncHarness.names(SyncHarness.events(only), "installed") == ["B"])
        #expect(!FileManager.default.fileExists(atPath: "\(h.root)/A.docset"))
    }

    @Test func statusListsDocsetsAndTheLastResultPerFeed() async throws {
        let h = try SyncHarness.inMemory()
        try h.publishArchive(try DocsetFixture.make(version: "3.1"), as: "A.tgz", folder: "A")
        try h.writeAtomFeed("f.atom", [.init(identifier: "org.a", title: "A", version: "3.1", archive: "A.tgz")])
        try h.writeConfig(feeds: ["f.atom", "gone.atom"])
        _ = try await h.sync()
        let status = try h.run(["status", "--json"])
        #expect(status.status == 0)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(status.standardOutput.utf8)) as? [String: Any])
        let docsets = try #require(object["docsets"] as? [[String: Any]])
        #expect(docsets.count == 1 && docsets[0]["name"] as? String == "A" && docsets[0]["version"] as? String == "3.1")
        #expect(docsets[0]["source_url"] as? String == h.url("A.tgz"))
        let feeds = try #require((object["last_sync"] as? [String: Any])?["feeds"] as? [[String: Any]])
        #expect(feeds.map { $0["ok"] as? Bool } == [true, false])
        let text = try h.run(["status"])
        #expect(text.standardOutput.split(separator: "\n").contains { $0.hasPrefix("  A ") && $0.contains(" 3.1 ") })
        #expect(text.standardOutput.contains("FAILED"), "\(text.standardOutput)")
    }

    @Test func removeTakesTheDocsetAwayAtomically() async throws {
        let h = try SyncHarness.inMemory()
        try h.publishArchive(try DocsetFixture.make(version: "1"), as: "A.tgz", folder: "A")
        try h.writeAtomFeed("f.atom", [.init(identifier: "org.a", title: "A", version: "1", archive: "A.tgz")])
        try h.writeConfig(feeds: ["f.atom"])
        _ = try await h.sync()
        #expect(FileManager.default.fileExists(atPath: "\(h.root)/A.docset"))
        let removed = try h.run(["remove", "A"])
        #expect(removed.status == 0, "\(removed.standardError)")
        #expect(!FileManager.default.fileExists(atPath: "\(h.root)/A.docset"))
        #expect(try h.run(["remove", "A"]).status != 0)
    }

    @Test func aBadConfigurationNamesTheKeyAndExits78() throws {
        let h = try SyncHarness.inMemory()  // refused while the configuration loads: no server is asked
        try "root = \"r\"\nconcurency = 3\n".write(toFile: h.configPath, atomically: true, encoding: .utf8)
        let result = try h.run(["sync"])
        #expect(result.status == 78)
        #expect(result.standardError.contains("concurency: unknown key"))
    }
}
