import Foundation
import TestSupport
import Testing

/// `daemon --interval 0s` once ran thousands of syncs a second: intervals below a minute are usage errors.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct DaemonIntervalTests {
    @Test(arguments: ["0s", "1s", "59s"])
    func anIntervalBelowOneMinuteIsRefused(interval: String) throws {
        let h = try SyncHarness.inMemory()
        try h.writeConfig(feeds: [])
        let run = try BoundedRun.run(h, ["daemon", "--interval", interval, "--jitter", "0s"], deadline: 30)
        #expect(!run.killed, "the daemon must refuse to start, not run")
        #expect(run.status == 64, "usage error: \(run.standardError)")
        #expect(run.standardError.contains("--interval") && run.standardError.contains("minimum is 60s"))
        #expect(!FileManager.default.fileExists(atPath: "\(h.state)/last-sync.json"), "no sync ran")
    }
}
