import DocSync
import Foundation
import TestSupport
import Testing

/// `[metrics] textfile`: after each run a Prometheus text file (parsed here) with the run's result and counts.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct MetricsTextFileTests {
    @Test func eachRunRewritesTheFile() async throws {
        let h = try SyncHarness.inMemory()
        try FileManager.default.createDirectory(atPath: h.dir.appending("metrics"), withIntermediateDirectories: true)
        try h.publishArchive(try DocsetFixture.make(version: "1"), as: "A.tgz", folder: "A")
        try h.writeAtomFeed("f.atom", [.init(identifier: "org.a", title: "A", version: "1", archive: "A.tgz")])
        try h.writeConfig(feeds: ["f.atom"], extra: "[metrics]\ntextfile = \"metrics/docsync.prom\"")
        let file = h.dir.appending("metrics/docsync.prom")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: "\(h.www)/A.tgz")[.size] as? Int)

        let before = Date().timeIntervalSince1970
        #expect(try await h.sync().status == 0)
        let first = try MetricsSamples.parse(file)
        #expect(first["docsync_last_run_result{result=\"ok\"}"] == 1)
        #expect(first["docsync_last_run_result{result=\"failed\"}"] == 0)
        #expect(first["docsync_last_run_docsets{outcome=\"installed\"}"] == 1)
        #expect(first["docsync_last_run_docsets{outcome=\"failed\"}"] == 0)
        #expect(first["docsync_last_run_downloaded_bytes"] == Double(size))
        #expect(first["docsync_last_run_resumed_bytes"] == 0)
        let success = try #require(first["docsync_last_success_timestamp_seconds"])
        #expect(success >= before.rounded(.down) && (first["docsync_last_run_duration_seconds"] ?? -1) >= 0)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains("# TYPE docsync_last_run_result gauge") && text.contains("# HELP docsync_last_run_result"))

        try h.writeConfig(
            feeds: ["f.atom", "missing.atom"], extra: "[metrics]\ntextfile = \"metrics/docsync.prom\"")
        #expect(try await h.sync().status == 3)
        let second = try MetricsSamples.parse(file)
        #expect(second["docsync_last_run_result{result=\"failed\"}"] == 1)
        #expect(second["docsync_last_run_feeds_failed"] == 1)
        #expect(second["docsync_last_run_docsets{outcome=\"unchanged\"}"] == 1)
        let kept = try #require(second["docsync_last_success_timestamp_seconds"])
        #expect(abs(kept - success) < 1, "the last success stays the first run's (last-run.json keeps whole seconds)")
        #expect(
            (try FileManager.default.contentsOfDirectory(atPath: h.dir.appending("metrics"))) == ["docsync.prom"],
            "no temporary file left")
    }

    @Test func aMetricsFolderThatDoesNotExistIsAPreflightError() throws {
        let h = try SyncHarness.inMemory()
        try h.writeConfig(feeds: ["f.atom"], extra: "[metrics]\ntextfile = \"nowhere/docsync.prom\"")
        let run = try h.run(["sync"])
        #expect(run.status == 78)
        #expect(run.standardError.contains("metrics.textfile = \"\(h.dir.appending("nowhere/docsync.prom"))\""))
    }
}
