import DocSync
import Foundation
import TestSupport
import Testing

/// `[network] rate_limit` through a real sync: the downloader's own rate (its progress events) never exceeds the
/// limit by more than 10 %, and the archive cannot arrive sooner than the limit allows.
@Suite(
    .enabled(if: Nginx.isInstalled, "nginx is not installed (scripts/bootstrap installs it)"),
    .timeLimit(.minutes(10)), .blockingWaits)
struct RateLimitSyncTests {
    @Test func rateLimitSlowsARealSyncToTheLimit() throws {
        let limit = 512 << 10
        let h = try SyncHarness()
        var fixture = try DocsetFixture.make(version: "1")
        var generator = TestRandom(seed: 11)
        fixture.files["Contents/Resources/Documents/blob.bin"] = (
            (0..<(1_200 << 10)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }, 0o644
        )
        try h.publishArchive(fixture, as: "A.tgz", folder: "A")
        let size = try #require(FileManager.default.attributesOfItem(atPath: "\(h.www)/A.tgz")[.size] as? Int)
        try h.writeAtomFeed("f.atom", [.init(identifier: "org.a", title: "A", version: "1", archive: "A.tgz")])
        try h.writeConfig(feeds: ["f.atom"], extra: "[network]\nrate_limit = \"512K\"")

        let result = try h.run(["sync", "--json"], environment: Tool.environment())
        #expect(result.status == 0, "\(result.standardError)")
        #expect(h.installedManifest("A") == fixture.expectedManifest)
        let downloading = SyncHarness.events(result).filter {
            $0["event"] as? String == "progress" && $0["phase"] as? String == "downloading"
        }
        let late = downloading.filter { ($0["bytes"] as? Int ?? 0) >= limit }.compactMap { $0["rate"] as? Int }
        #expect(!late.isEmpty, "progress after the first second is reported")
        #expect(late.allSatisfy { Double($0) <= Double(limit) * 1.1 }, "rates \(late), limit \(limit)")
        let summary = SyncHarness.events(result).first { $0["event"] as? String == "summary" }
        let seconds = summary?["seconds"] as? Double ?? 0
        #expect(seconds >= Double(size) / (Double(limit) * 1.1), "\(size) bytes in \(seconds) s")
    }
}
