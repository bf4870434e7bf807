import DocSync
import DocSyncDownload
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The service side of sync: the lock, the daemon, crashes, the library API and the post-install hook.
@Suite(
    .enabled(if: Nginx.isInstalled, "nginx is not installed (scripts/bootstrap installs it)"),
    .timeLimit(.minutes(10)), .blockingWaits)
struct SyncServiceTests {
    @Test func twoConcurrentSyncsNeverOverlap() throws {
        let (h, fixture) = try SyncHarness.slowHarness(rate: 128 << 10)
        let (first, _, _) = try SyncHarness.start(h, ["sync"])
        defer { if first.isRunning { kill(first.processIdentifier, SIGKILL) } }
        try SyncHarness.waitForLock(h)
        let size = (try? FileManager.default.attributesOfItem(atPath: "\(h.www)/Big.tgz")[.size] as? Int) ?? 0
        let busy = try h.run(["sync"])
        #expect(first.isRunning, "the first sync is still downloading (\(size) bytes at 128 KiB/s)")
        #expect(busy.status == 75, "a second sync without --wait is refused: \(busy.standardError)")
        #expect(busy.standardError.contains("another docsync sync is running") && busy.standardError.contains("--wait"))
        let queued = try h.run(["sync", "--wait", "--json"])  // waits for the first, then finds nothing to do
        first.waitUntilExit()
        #expect(first.terminationStatus == 0)
        #expect(queued.status == 0, "\(queued.standardError)")
        #expect(SyncHarness.names(SyncHarness.events(queued), "unchanged") == ["Big"])
        #expect(h.installedManifest("Big") == fixture.expectedManifest)
    }

    @Test func theDaemonRunsTwoCyclesAndStopsCleanlyOnSIGTERM() throws {
        let h = try SyncHarness()
        try h.publishArchive(try DocsetFixture.make(version: "1"), as: "A.tgz", folder: "A")
        try h.writeAtomFeed("f.atom", [.init(identifier: "org.a", title: "A", version: "1", archive: "A.tgz")])
        try h.writeConfig(feeds: ["f.atom"])
        let arguments = ["daemon", "--interval", "1s", "--jitter", "0s", "--json"]
        let environment = ProcessInfo.processInfo.environment.merging(["DOCSYNC_TEST_MINIMUM_INTERVAL": "1s"]) { $1 }
        let (daemon, out, err) = try SyncHarness.start(h, arguments, environment: environment)
        defer { if daemon.isRunning { kill(daemon.processIdentifier, SIGKILL) } }
        let output = OutputReader(out)
        let cycles = output.read(timeout: 60) { $0.components(separatedBy: "\"event\":\"summary\"").count - 1 >= 2 }
        let text = output.text
        guard cycles else {
            kill(daemon.processIdentifier, SIGKILL)
            daemon.waitUntilExit()
            let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            Issue.record("no two cycles within 60 s (killed with SIGKILL); stdout: \(text)\nstderr: \(errors)")
            return
        }
        #expect(text.contains("\"event\":\"installed\"") && text.contains("\"event\":\"unchanged\""))
        kill(daemon.processIdentifier, SIGTERM)
        try? Poll.until("the daemon to stop", timeout: 10) { !daemon.isRunning }
        #expect(!daemon.isRunning, "the daemon stops within 10 s of SIGTERM")
        if daemon.isRunning { kill(daemon.processIdentifier, SIGKILL) }
        daemon.waitUntilExit()
        #expect(daemon.terminationReason == .exit && daemon.terminationStatus == 0)
    }

    /// SIGTERM while the daemon downloads: it stops promptly, the partial download stays checkpointed, nothing
    /// half-installed shows, and the next sync resumes with a Range request instead of starting over.
    @Test func sigtermDuringADownloadCheckpointsItAndTheNextSyncResumes() throws {
        let (h, fixture) = try SyncHarness.slowHarness(rate: 64 << 10)
        let staging = h.dir.appending("staging")
        let (daemon, _, _) = try SyncHarness.start(h, ["daemon", "--interval", "1h", "--jitter", "0s"])
        defer { if daemon.isRunning { kill(daemon.processIdentifier, SIGKILL) } }
        try Poll.until("32 KiB of a partial download in staging", timeout: 20, every: 0.05) {
            (PartialDownload.list(in: staging).first?.bytes ?? 0) >= 32 << 10
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: "\(h.www)/Big.tgz")[.size] as? Int) ?? 0
        let partial = try #require(
            PartialDownload.list(in: staging).first,
            "a journal was committed (archive \(size) bytes; staging: \((try? FileManager.default.contentsOfDirectory(atPath: staging)) ?? []))"
        )
        kill(daemon.processIdentifier, SIGTERM)
        try? Poll.until("the daemon to stop", timeout: 10) { !daemon.isRunning }
        #expect(!daemon.isRunning, "the daemon stops within 10 s of SIGTERM mid-download")
        if daemon.isRunning { kill(daemon.processIdentifier, SIGKILL) }
        daemon.waitUntilExit()
        #expect(daemon.terminationReason == .exit && daemon.terminationStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: "\(h.root)/Big.docset"))
        let kept = try #require(
            PartialDownload.list(in: staging).first,
            "the partial download is kept: \((try? FileManager.default.contentsOfDirectory(atPath: staging)) ?? [])")
        #expect(kept.bytes >= partial.bytes)

        let resumed = try h.run(["sync", "--json"])
        #expect(resumed.status == 0, "\(resumed.standardError)")
        #expect(h.installedManifest("Big") == fixture.expectedManifest)
        let archiveRequests = h.nginx.waitForAccessLog { $0.filter { $0.uri.hasSuffix("Big.tgz") }.count >= 2 }
            .filter { $0.uri.hasSuffix("Big.tgz") }
        #expect(archiveRequests.last?.range.hasPrefix("bytes=") == true, "resumed with Range: \(archiveRequests)")
    }

    /// SIGKILL at random moments of a sync (download, extraction, swap): the root never shows a half-installed
    /// docset — `Big.docset` is absent or exactly one complete version — and the next sync completes.
    @Test func sigkillAtRandomMomentsNeverLeavesAHalfInstalledDocset() throws {
        let (h, v1) = try SyncHarness.slowHarness(rate: 256 << 10)
        let v2 = try SyncHarness.bigFixture(version: "2.0")
        try h.publishArchive(v2, as: "Big-2.tgz", folder: "Big")
        let allowed = [v1.expectedManifest, v2.expectedManifest]
        var generator = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let seed = "seed \(generator.seed) (DOCSYNC_TEST_SEED=\(generator.seed) replays the kill moments)"
        for trial in 0..<10 {
            if trial == 5 {  // halfway, publish version 2: later kills land during an update
                try h.writeAtomFeed(
                    "f.atom", [.init(identifier: "org.big", title: "Big", version: "2.0", archive: "Big-2.tgz")])
            }
            let (process, _, _) = try SyncHarness.start(h, ["sync"])
            usleep(UInt32.random(in: 50_000...2_000_000, using: &generator))  // the kill moment, not a wait
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            h.expectCompleteOrAbsent("Big", allowed: allowed, "trial \(trial), \(seed)")
        }
        let final = try h.run(["sync", "--json"])
        #expect(final.status == 0, "\(final.standardError)")
        #expect(h.installedManifest("Big") == v2.expectedManifest)
    }

    /// An indexing backend linking `DocSync`: on every installed / updated event it opens `docSet.dsidx`.
    @Test func anIndexingBackendReadsEachNewIndexFromTheEventStream() async throws {
        let h = try SyncHarness.inMemory()
        try h.publishArchive(try DocsetFixture.make(version: "1", indexRows: 5), as: "A-1.tgz", folder: "A")
        try h.publishArchive(try DocsetFixture.make(version: "2", indexRows: 8), as: "A-2.tgz", folder: "A")
        try h.writeAtomFeed("f.atom", [.init(identifier: "org.a", title: "A", version: "1", archive: "A-1.tgz")])
        try h.writeConfig(feeds: ["f.atom"])
        let engine = try h.engine()

        var counts: [String: Int] = [:]
        for try await event in engine.sync() {
            if case .installed(let docset) = event {
                counts["installed \(docset.version ?? "-")"] = SQLiteIndex.count(docset.indexPath)
            }
        }
        try h.writeAtomFeed("f.atom", [.init(identifier: "org.a", title: "A", version: "2", archive: "A-2.tgz")])
        for try await event in engine.sync() {
            if case .updated(let docset, _) = event {
                counts["updated \(docset.version ?? "-")"] = SQLiteIndex.count(docset.indexPath)
            }
        }
        #expect(counts == ["installed 1": 5, "updated 2": 8])
        let installed = try engine.installedDocsets()
        #expect(installed.map(\.name) == ["A"] && installed[0].identifier == "org.a" && installed[0].version == "2")
        #expect(SQLiteIndex.count(installed[0].indexPath) == 8)
    }

    @Test func thePostInstallHookGetsTheDocsetInItsEnvironment() async throws {
        let h = try SyncHarness.inMemory()
        try h.publishArchive(try DocsetFixture.make(version: "4.2"), as: "A.tgz", folder: "A")
        try h.writeAtomFeed("f.atom", [.init(identifier: "org.a", title: "A", version: "4.2", archive: "A.tgz")])
        let log = h.dir.appending("hook.log")
        try h.writeConfig(
            feeds: ["f.atom"],
            extra: "post_install = \"echo $DOCSYNC_NAME $DOCSYNC_VERSION $DOCSYNC_IDENTIFIER $DOCSYNC_INDEX >> \(log)\""
        )
        let first = try await h.sync()
        #expect(first.status == 0, "\(first.lines)")
        let line = try String(contentsOfFile: log, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = line.split(separator: " ").map(String.init)
        #expect(parts.count == 4 && parts[0] == "A" && parts[1] == "4.2" && parts[2] == "org.a")
        #expect(SQLiteIndex.count(parts[3]) == 3)

        try h.writeConfig(feeds: ["f.atom"], extra: "post_install = \"echo broken >&2; exit 7\"")
        try FileManager.default.removeItem(atPath: "\(h.root)/A.docset")
        let failing = try await h.sync()
        let failure = failing.first("hook-failed")?["failure"] as? [String: Any]
        #expect((failure?["message"] as? String)?.contains("status 7: broken") == true, "\(failing.lines)")
        #expect(failure?["code"] as? String == "hook")
        #expect(FileManager.default.fileExists(atPath: "\(h.root)/A.docset"), "the docset stays installed")
    }
}
