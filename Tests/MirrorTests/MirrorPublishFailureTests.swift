import DocSync
import DocSyncMirror
import Foundation
import TestSupport
import Testing

/// A publish that fails is visible (a `failed` event, counted in the summary: exit 3), and a docset whose archive
/// cannot be had for the pool keeps the version published before: never dropped from the feeds, never a feed naming
/// a missing archive.
@Suite(
    .enabled(if: Nginx.isInstalled, "nginx is not installed (scripts/bootstrap installs it)"),
    .serialized, .timeLimit(.minutes(10)), .blockingWaits)
struct MirrorPublishFailureTests {
    @Test func aDocsetWhoseArchiveCannotBeHadKeepsItsPublishedVersionAndTheRunCountsIt() throws {
        var generator = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let seed = generator.seed
        print("MirrorPublishFailureTests seed \(seed) (DOCSYNC_TEST_SEED=\(seed) replays it)")
        let fleet = try MirrorFleet()
        let v1 = try fleet.originPublishes(version: "1.0", megabytes: 1, seed: generator.next())
        #expect(try fleet.publisher(["sync"]).status == 0)

        // 2.0 is installed by a sync without [mirror] (so no copy is kept), then the origin loses it.
        let v2 = try fleet.originPublishes(version: "2.0", megabytes: 1, seed: generator.next())
        let plain = fleet.dir.appending("publisher/plain.toml")
        try "root = \"root\"\nstaging = \"staging\"\nstate = \"state\"\n\n[[feed]]\nurl = \"\(fleet.origin.url("Go.xml"))\"\n"
            .write(toFile: plain, atomically: true, encoding: .utf8)
        let installed = try Tool.run(Tool.docsyncBinary, ["sync", "--config", plain])
        #expect(installed.status == 0, "\(installed.standardError)")
        try FileManager.default.removeItem(atPath: "\(fleet.originWWW)/Go-2.0.tgz")

        let published = try fleet.publisher(["mirror", "publish"])
        #expect(published.status == 3, "\(published.standardError)")
        #expect(published.standardError.contains("Go: its archive could not be obtained"), "\(published.standardError)")
        #expect(published.standardError.contains("keeps the version published before (1.0)"))
        try Self.expectPublishes(v1, not: v2, fleet)

        // The same at the end of a sync: a `failed` event and the summary's count (exit 3).
        let events = try fleet.publisher(["sync", "--json"])
        #expect(events.status == 3, "\(events.standardError)")
        let failed = Self.objects(events.standardOutput).filter { $0["event"] as? String == "failed" }
        #expect(failed.count == 1 && failed.first?["name"] as? String == "[mirror]", "\(events.standardOutput)")
        let message = ((failed.first?["failure"] as? [String: Any])?["message"] as? String) ?? ""
        #expect(message.contains("Go: its archive could not be obtained"), "\(message)")
        let summary = Self.objects(events.standardOutput).last { $0["event"] as? String == "summary" }
        #expect((summary?["failed"] as? NSNumber)?.intValue == 1, "\(String(describing: summary))")
        try Self.expectPublishes(v1, not: v2, fleet)
    }

    @Test func aPublishThatCannotWriteTheTreeFailsTheSync() throws {
        let fleet = try MirrorFleet()
        try fleet.originPublishes(version: "1.0", megabytes: 1, seed: 7)
        #expect(try fleet.publisher(["sync"]).status == 0)
        let feeds = "\(fleet.mirrorDirectory)/feeds"
        try FileManager.default.moveItem(atPath: feeds, toPath: "\(fleet.mirrorDirectory)/feeds.away")
        try "not a folder".write(toFile: feeds, atomically: true, encoding: .utf8)

        let run = try fleet.publisher(["sync", "--json"])
        #expect(run.status == 3, "\(run.standardError)")
        let failed = Self.objects(run.standardOutput).filter { $0["event"] as? String == "failed" }
        #expect(failed.first?["name"] as? String == "[mirror]", "\(run.standardOutput)")
        let message = ((failed.first?["failure"] as? [String: Any])?["message"] as? String) ?? ""
        #expect(message.contains("mirror publish") && message.contains("feeds"), "\(message)")
        let summary = Self.objects(run.standardOutput).last { $0["event"] as? String == "summary" }
        #expect((summary?["failed"] as? NSNumber)?.intValue == 1, "\(String(describing: summary))")
        #expect(try String(contentsOfFile: feeds, encoding: .utf8) == "not a folder", "nothing it did not create")
    }

    /// The feed, catalogue and manifest name `kept` (its archive is there) and never `gone`.
    static func expectPublishes(_ kept: String, not gone: String, _ fleet: MirrorFleet) throws {
        let feed = try String(contentsOfFile: "\(fleet.mirrorDirectory)/feeds/Go.xml", encoding: .utf8)
        #expect(feed.contains("<sha256>\(kept)</sha256>") && !feed.contains(gone), "\(feed)")
        let catalogue = try String(contentsOfFile: "\(fleet.mirrorDirectory)/catalogue.json", encoding: .utf8)
        #expect(catalogue.contains(kept) && !catalogue.contains(gone))
        #expect(try LockFile.load("\(fleet.mirrorDirectory)/manifest.lock").docsets.map(\.sha256) == [kept])
        try MirrorInvariants.check(fleet.mirrorDirectory, baseURL: fleet.cache.url(""))
    }

    static func objects(_ lines: String) -> [[String: Any]] {
        lines.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }
}
