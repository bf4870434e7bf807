import DocSync
import Foundation
import TestSupport
import Testing

/// A post-install hook that fails or hangs is a failed docset: an event with its exit status and standard error,
/// the summary's `failed`, exit status 3. The failing hook runs in process against a `MemoryOrigin`; the text line
/// (which only the `docsync` binary prints) and the timeout (a wall-clock bound) run the binary against nginx.
@Suite(
    .enabled(if: Nginx.isInstalled, "nginx is not installed (scripts/bootstrap installs it)"),
    .timeLimit(.minutes(10)), .blockingWaits)
struct PostInstallHookTests {
    static func harness(hook: String, extra: String = "", binary: Bool = false) throws -> SyncHarness {
        let h = try binary ? SyncHarness() : SyncHarness.inMemory()
        try h.publishArchive(try DocsetFixture.make(version: "1"), as: "A.tgz", folder: "A")
        try h.writeAtomFeed("f.atom", [.init(identifier: "org.a", title: "A", version: "1", archive: "A.tgz")])
        try h.writeConfig(feeds: ["f.atom"], extra: "post_install = \"\(hook)\"\n\(extra)")
        return h
    }

    @Test func aHookThatExitsNonZeroFailsTheRun() async throws {
        let h = try Self.harness(hook: "echo first >&2; echo last words >&2; exit 7")
        let run = try await h.sync()
        #expect(run.status == 3, "\(run.lines)")
        let event = try #require(run.first("hook-failed"), "\(run.lines)")
        let failed = try #require(event["failure"] as? [String: Any])
        #expect(failed["code"] as? String == "hook")
        #expect(failed["exit_status"] as? Int == 7)
        #expect(failed["stderr_tail"] as? [String] == ["first", "last words"])
        let summary = try #require(run.events.last)
        #expect(summary["failed"] as? Int == 1 && summary["installed"] as? Int == 0, "\(summary)")
        #expect(FileManager.default.fileExists(atPath: "\(h.root)/A.docset"), "the docset stays installed")
    }

    @Test func theTextLineNamesTheHooksStatusAndStandardError() throws {
        let text = try Self.harness(hook: "echo oops >&2; exit 2", binary: true).run(["sync"])
        #expect(text.status == 3)
        #expect(text.standardOutput.contains("A: installed, but post_install exited with status 2: oops"))
        #expect(text.standardOutput.contains("1 failed"), "\(text.standardOutput)")
    }

    /// The binary, not in process: the bound is wall-clock time, which a parallel suite sharing the test process's
    /// cooperative pool stretched past it (170 s for a 1 s timeout, on two loaded cores).
    @Test func aHookPastItsTimeoutIsStoppedWithItsChildren() throws {
        let h = try Self.harness(
            hook: "sleep 600 & echo started >&2; wait", extra: "post_install_timeout = \"1s\"", binary: true)
        let started = Date()
        let run = try h.run(["sync", "--json"])
        #expect(Date().timeIntervalSince(started) < 60, "the hook's 600 s sleep did not hold the sync")
        #expect(run.status == 3, "\(run.standardError)")
        let event = try #require(SyncHarness.events(run).first { $0["event"] as? String == "hook-failed" })
        let failed = try #require(event["failure"] as? [String: Any])
        #expect(failed["timed_out"] as? Bool == true)
        #expect((failed["message"] as? String)?.contains("post_install_timeout") == true)
        #expect(failed["stderr_tail"] as? [String] == ["started"])
    }
}
