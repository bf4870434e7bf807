import DocSync
import DocSyncMirror
import Foundation
import TestSupport
import Testing

/// The fleet mirror end to end: origin → publishing host → nginx mirror → nginx caching tier (slice) → 20 clients.
@Suite(
    .enabled(if: Nginx.isInstalled, "nginx is not installed (scripts/bootstrap installs it)"),
    .serialized, .timeLimit(.minutes(10)), .blockingWaits)
struct MirrorEndToEndTests {
    @Test func aFleetSyncsThroughTheCachingTierAndAnOfflineRootImportsTheBundle() throws {
        var generator = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let seed = generator.seed
        print("MirrorEndToEndTests seed \(seed) (DOCSYNC_TEST_SEED=\(seed) replays it)")
        let fleet = try MirrorFleet()
        let v1 = try fleet.originPublishes(version: "1.0", megabytes: 3, seed: generator.next())

        // The publishing host syncs from the origin and publishes at the end of its sync.
        let published = try fleet.publisher(["sync"])
        #expect(published.status == 0, "\(published.standardError)")
        let mirrorArchive = "\(fleet.mirrorDirectory)/archives/\(v1)/Go.tgz"
        #expect(FileManager.default.fileExists(atPath: mirrorArchive))
        let feed = try String(contentsOfFile: "\(fleet.mirrorDirectory)/feeds/Go.xml", encoding: .utf8)
        #expect(feed.contains("<sha256>\(v1)</sha256>"))
        #expect(feed.contains("<url>\(fleet.cache.url("archives/\(v1)/Go.tgz"))</url>"), "mirror copy first: \(feed)")
        #expect(feed.contains("<url>\(fleet.origin.url("Go-1.0.tgz"))</url>"), "upstream fallback: \(feed)")
        let manifest = try LockFile.load("\(fleet.mirrorDirectory)/manifest.lock")
        #expect(manifest.docsets.map(\.sha256) == [v1] && manifest.docsets[0].size > 3 << 20)
        let publisherTree = try #require(MirrorFleet.tree(fleet.publisherRoot))

        // 20 clients at once, each with its own root, through the caching tier.
        let clients = try (0..<20).map { try fleet.client("c\($0)") }
        let processes = try clients.map { try MirrorFleet.startSync($0) }
        let statuses = processes.map { $0.waitForExit() }
        #expect(statuses.allSatisfy { $0 == 0 }, "\(statuses)")
        for client in clients {
            #expect(MirrorFleet.tree(MirrorFleet.root(ofClient: client)) == publisherTree, "\(client)")
        }
        let fromOrigin = MirrorFleet.archiveRequests(fleet.origin)
        #expect(fromOrigin.count == 1, "the origin served the archive once (to the publisher): \(fromOrigin)")
        let fromMirror = MirrorFleet.archiveRequests(fleet.mirror)
        #expect(fromMirror.count == 1, "the caching tier filled its one slice once: \(fromMirror)")

        // A client killed mid-download resumes through the caching tier with Range.
        // The client's link is slow: its requests go through a forward proxy (nginx, limit_rate) to the caching tier.
        let link = try Nginx(
            root: fleet.dir.appending("empty"),
            locations: "location / { limit_rate 262144; proxy_pass http://127.0.0.1:\(fleet.cache.port); }")
        defer { link.stop() }
        let slow = try fleet.client("killed", extra: "[network]\nproxy = \"\(link.url(""))\"")
        let events = fleet.dir.appending("killed-events.json")
        let victim = try MirrorFleet.startSync(slow, json: events)
        // Killed once 512 KiB are durable (status's partial bytes are the journal's durable extent), so the resume
        // must ask for the rest with Range; a kill before the first commit would restart from zero.
        try? Poll.until("512 KiB durable", timeout: 120, every: 0.05) {
            Self.durable(slow) >= 512 << 10 || !victim.isRunning
        }
        kill(victim.processIdentifier, SIGKILL)
        _ = victim.waitForExit()
        let before = Self.durable(slow)
        #expect(before >= 512 << 10 && before < 3 << 20, "killed mid-download (\(before) durable bytes)")
        let resumed = try Tool.run(Tool.docsyncBinary, ["sync", "--config", slow])
        #expect(resumed.status == 0, "\(resumed.standardError)")
        #expect(MirrorFleet.tree(MirrorFleet.root(ofClient: slow)) == publisherTree)
        let ranged = fleet.cache.accessLog().filter {
            $0.uri.hasSuffix(".tgz") && $0.range.hasPrefix("bytes=") && !$0.range.hasPrefix("bytes=0-")
                && $0.status == 206
        }
        #expect(!ranged.isEmpty, "the resumed client asked the caching tier for the rest: \(fleet.cache.accessLog())")

        // A new version is published while clients sync: each ends with one version, complete.
        let v2 = try fleet.originPublishes(version: "2.0", megabytes: 3, seed: generator.next())
        let late = try (0..<6).map { try fleet.client("late\($0)", extra: "[network]\nproxy = \"\(link.url(""))\"") }
        // They are mid-download (slow link) when the publisher installs and publishes 2.0.
        let logs = late.indices.map { fleet.dir.appending("late\($0).json") }
        let running = try late.indices.map { try MirrorFleet.startSync(late[$0], json: logs[$0]) }
        try Poll.until("every late client downloading", timeout: 120) { logs.allSatisfy { Self.downloaded($0) > 0 } }
        let republished = try fleet.publisher(["sync"])
        #expect(republished.status == 0, "\(republished.standardError)")
        let publisherTree2 = try #require(MirrorFleet.tree(fleet.publisherRoot))
        #expect(publisherTree2 != publisherTree)
        #expect(running.map { $0.waitForExit() }.allSatisfy { $0 == 0 })
        for client in late {
            let tree = MirrorFleet.tree(MirrorFleet.root(ofClient: client))
            #expect(tree == publisherTree || tree == publisherTree2, "\(client) has a whole version")
        }
        for digest in [v1, v2] {  // keep = 2: both stay, and every document names only archives that exist
            #expect(FileManager.default.fileExists(atPath: "\(fleet.mirrorDirectory)/archives/\(digest)/Go.tgz"))
        }
        try MirrorInvariants.check(fleet.mirrorDirectory, baseURL: fleet.cache.url(""))

        // Air-gapped: the tree as one bundle, imported on a root with no feeds and no network.
        let bundle = fleet.dir.appending("mirror.tar")
        let bundled = try fleet.publisher(["mirror", "bundle", bundle])
        #expect(bundled.status == 0, "\(bundled.standardError)")
        // The bundle carries the archive the manifest names, not the older kept one, unless asked.
        let carried = try Tool.run("/usr/bin/tar", ["-tf", bundle]).standardOutput
        #expect(carried.contains("archives/\(v2)/") && !carried.contains("archives/\(v1)/"), "\(carried)")
        let everything = fleet.dir.appending("everything.tar")
        #expect(try fleet.publisher(["mirror", "bundle", "--include-retired", everything]).status == 0)
        #expect(try Tool.run("/usr/bin/tar", ["-tf", everything]).standardOutput.contains("archives/\(v1)/"))
        let offline = try fleet.client("offline")
        try "root = \"root\"\nstaging = \"staging\"\nstate = \"state\"\n".write(
            toFile: offline, atomically: true, encoding: .utf8)
        let imported = try Tool.run(Tool.docsyncBinary, ["mirror", "import", bundle, "--config", offline])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(MirrorFleet.tree(MirrorFleet.root(ofClient: offline)) == publisherTree2)
    }

    /// The durable bytes of the client's partial downloads, as `docsync status --json` lists them.
    static func durable(_ config: String) -> Int64 {
        guard let status = try? Tool.run(Tool.docsyncBinary, ["status", "--json", "--config", config]),
            let object = try? JSONSerialization.jsonObject(with: Data(status.standardOutput.utf8)) as? [String: Any],
            let partials = object["partial_downloads"] as? [[String: Any]]
        else { return 0 }
        return partials.compactMap { ($0["bytes"] as? NSNumber)?.int64Value }.reduce(0, +)
    }

    /// The largest byte count a `sync --json` run reported downloading so far.
    static func downloaded(_ events: String) -> Int64 {
        let text = (try? String(contentsOfFile: events, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line -> Int64? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                object["event"] as? String == "progress", object["phase"] as? String == "downloading"
            else { return nil }
            return (object["bytes"] as? NSNumber)?.int64Value
        }.max() ?? 0
    }
}
