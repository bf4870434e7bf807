import DocSync
import DocSyncDownload
import Foundation
import TestSupport
import Testing

@testable import DocSyncCLI

#if canImport(Glibc)
    import Glibc
#endif

/// `status` tells the truth: a sync in progress, the last run even when interrupted, partial downloads with their
/// age; Ctrl-C / SIGTERM say what was kept; the daemon logs start, each cycle and stop.
@Suite(
    .enabled(if: Nginx.isInstalled, "nginx is not installed (scripts/bootstrap installs it)"),
    .timeLimit(.minutes(10)), .blockingWaits)
struct StatusTruthTests {
    static func waitForPartial(_ h: SyncHarness) throws {
        try Poll.until("32 KiB of a partial download in staging", every: 0.05) {
            (PartialDownload.list(in: h.dir.appending("staging")).first?.bytes ?? 0) >= 32 << 10
        }
    }

    @Test func aRunningSyncThenAKilledOneAreShown() throws {
        let (h, _) = try SyncHarness.slowHarness(rate: 64 << 10)
        let (sync, _, _) = try SyncHarness.start(h, ["sync"])
        defer { if sync.isRunning { kill(sync.processIdentifier, SIGKILL) } }
        try Self.waitForPartial(h)
        let during = try h.run(["status"])
        #expect(during.standardOutput.contains("Sync in progress: pid \(sync.processIdentifier) since"), "\(during.standardOutput)")
        let json = try h.run(["status", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
        #expect((object?["sync_in_progress"] as? [String: Any])?["pid"] as? Int == Int(sync.processIdentifier))

        kill(sync.processIdentifier, SIGKILL)
        sync.waitUntilExit()
        let after = try h.run(["status"])
        #expect(!after.standardOutput.contains("Sync in progress"), "\(after.standardOutput)")
        #expect(after.standardOutput.contains("did not finish"), "\(after.standardOutput)")
        #expect(after.standardOutput.contains("last progress"), "partial download with its age: \(after.standardOutput)")
    }

    @Test func sigintPrintsWhatWasKeptAndExits130() throws {
        let (h, _) = try SyncHarness.slowHarness(rate: 64 << 10)
        let (sync, _, err) = try SyncHarness.start(h, ["sync"])
        defer { if sync.isRunning { kill(sync.processIdentifier, SIGKILL) } }
        try Self.waitForPartial(h)
        kill(sync.processIdentifier, SIGINT)
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        sync.waitUntilExit()
        #expect(sync.terminationStatus == 130, "\(text)")
        #expect(text.contains("interrupted; kept 1 partial download ("), "\(text)")
        #expect(text.contains("the next sync resumes"))
        #expect(text.components(separatedBy: "interrupted").count == 2, "one line: \(text)")
        let status = try h.run(["status", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(status.standardOutput.utf8)) as? [String: Any]
        #expect((object?["last_run"] as? [String: Any])?["state"] as? String == "interrupted", "\(status.standardOutput)")
    }

    @Test func theDaemonLogsStartEachCycleAndStop() throws {
        let h = try SyncHarness()
        try h.publishArchive(try DocsetFixture.make(version: "1"), as: "A.tgz", folder: "A")
        try h.writeAtomFeed("f.atom", [.init(identifier: "org.a", title: "A", version: "1", archive: "A.tgz")])
        try h.writeConfig(feeds: ["f.atom"])
        let (daemon, _, err) = try SyncHarness.start(h, ["daemon", "--interval", "1h", "--jitter", "0s"])
        defer { if daemon.isRunning { kill(daemon.processIdentifier, SIGKILL) } }
        let log = OutputReader(err)
        let waited = log.read(timeout: 30) { $0.contains("next sync in") }
        #expect(waited, "the daemon's first cycle did not end in 30 s: \(log.text)")
        kill(daemon.processIdentifier, SIGTERM)
        log.read(timeout: 30) { $0.contains("docsync daemon stopped") }
        let text = log.text
        daemon.waitUntilExit()
        #expect(text.contains("docsync daemon started (pid \(daemon.processIdentifier))"), "\(text)")
        #expect(text.contains("sync done: 1 installed"), "\(text)")
        #expect(text.contains("next sync in 1 h"), "\(text)")
        #expect(text.contains("docsync daemon stopped"), "\(text)")
    }

    @Test(arguments: [
        (0.42, "0.4 s"), (9.5, "9.5 s"), (9.96, "10 s"), (42.4, "42 s"), (600, "10 min"), (3600, "1 h"),
        (11_520, "3.2 h"), (190_000, "2.2 d"), (3.0, "3 s"),
    ])
    func durationsPrintRounded(seconds: Double, text: String) {
        #expect(DurationText.text(seconds: seconds) == text)
    }
}
