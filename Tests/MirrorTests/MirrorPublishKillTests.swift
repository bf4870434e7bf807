import DocSync
import DocSyncMirror
import Foundation
import TestSupport
import Testing

/// SIGKILL anywhere in a sync that publishes: the mirror tree a reader sees is always consistent (every document
/// parses; every archive any of them names is there, whole), and the next publish completes it.
@Suite(
    .enabled(if: Nginx.isInstalled, "nginx is not installed (scripts/bootstrap installs it)"),
    .serialized, .timeLimit(.minutes(10)), .blockingWaits)
struct MirrorPublishKillTests {
    @Test func aPublishKilledAnywhereLeavesAConsistentTree() throws {
        var generator = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let seed = generator.seed
        print("MirrorPublishKillTests seed \(seed) (DOCSYNC_TEST_SEED=\(seed) replays it)")
        let fleet = try MirrorFleet(keep: 2, grace: "0s")  // grace 0: expired archives go at once, the worst case
        try fleet.originPublishes(version: "1", megabytes: 2, seed: generator.next())
        let first = try fleet.publisher(["sync"])
        #expect(first.status == 0, "\(first.standardError)")
        try MirrorInvariants.check(fleet.mirrorDirectory, baseURL: fleet.cache.url(""))

        // How long a whole sync + publish of a new version takes here, to spread the kills over it.
        try fleet.originPublishes(version: "2", megabytes: 2, seed: generator.next())
        let clock = ContinuousClock.now
        #expect(try fleet.publisher(["sync"]).status == 0)
        let span = max(0.2, (ContinuousClock.now - clock) / .seconds(1))

        for round in 3..<15 {
            try fleet.originPublishes(version: "\(round)", megabytes: 2, seed: generator.next())
            let delay = Double.random(in: 0...(span * 1.2), using: &generator)
            let process = try DocSyncProcess(["sync", "--config", fleet.publisherConfig], discardOutput: true).process
            usleep(UInt32(delay * 1_000_000))
            kill(process.processIdentifier, SIGKILL)
            _ = process.waitForExit()
            do {
                try MirrorInvariants.check(fleet.mirrorDirectory, baseURL: fleet.cache.url(""))
            } catch {
                Issue.record("round \(round), killed after \(delay) s (seed \(seed)): \(error)")
            }
        }
        let last = try fleet.publisher(["sync"])
        #expect(last.status == 0, "\(last.standardError)")
        try MirrorInvariants.check(fleet.mirrorDirectory, baseURL: fleet.cache.url(""))
        let feed = try String(contentsOfFile: "\(fleet.mirrorDirectory)/feeds/Go.xml", encoding: .utf8)
        #expect(feed.contains("<version>14</version>"), "\(feed)")
        // A publish that changes nothing rewrites nothing: validators stay, clients and caches get 304s.
        let documents = ["feeds/Go.xml", "docsets.atom", "catalogue.json", "manifest.lock"]
        let stamps = try documents.map { try Self.modified("\(fleet.mirrorDirectory)/\($0)") }
        #expect(try fleet.publisher(["sync"]).status == 0)
        #expect(try documents.map { try Self.modified("\(fleet.mirrorDirectory)/\($0)") } == stamps)
        let kept = try FileManager.default.contentsOfDirectory(atPath: "\(fleet.mirrorDirectory)/archives")
        #expect(kept.count == 2, "keep = 2, grace 0: only the two named versions stay: \(kept)")
    }

    static func modified(_ path: String) throws -> Date? {
        try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
    }
}
