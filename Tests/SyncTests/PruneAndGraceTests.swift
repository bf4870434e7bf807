import DocSync
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `prune = true` through real syncs, and the grace period ending while a daemon only runs idle cycles.
@Suite(.timeLimit(.minutes(10))) struct PruneAndGraceTests {
    static func entry(_ name: String, _ version: String) -> SyncHarness.AtomEntry {
        .init(identifier: "org.\(name.lowercased())", title: name, version: version, archive: "\(name)-\(version).tgz")
    }

    static func versions(_ h: SyncHarness) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "\(h.root)/.docsync/versions")) ?? []).sorted()
    }

    @Test(arguments: [true, false]) func aDocsetDroppedFromTheFeedIsRemovedOnlyWithPrune(prune: Bool) throws {
        let h = try SyncHarness()
        let a = try DocsetFixture.make(version: "1")
        try h.publishArchive(a, as: "A-1.tgz", folder: "A")
        try h.publishArchive(try DocsetFixture.make(version: "1"), as: "B-1.tgz", folder: "B")
        try h.writeAtomFeed("f.atom", [Self.entry("A", "1"), Self.entry("B", "1")])
        try h.writeConfig(feeds: ["f.atom"], extra: "prune = \(prune)")
        #expect(try h.run(["sync"], environment: Tool.environment()).status == 0)
        #expect(FileManager.default.fileExists(atPath: "\(h.root)/B.docset"))

        try h.writeAtomFeed("f.atom", [Self.entry("A", "1")])
        let result = try h.run(["sync", "--json", "--refresh"], environment: Tool.environment())
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        let events = SyncHarness.events(result)
        var status = stat()
        let bPresent = lstat("\(h.root)/B.docset", &status) == 0
        if prune {
            #expect(SyncHarness.names(events, "removed") == ["B"], "\(result.standardOutput)")
            #expect(!bPresent, "B.docset is gone from the root")
        } else {
            #expect(SyncHarness.names(events, "orphaned") == ["B"], "\(result.standardOutput)")
            #expect(bPresent && h.installedManifest("B") != nil, "B.docset is only reported")
        }
        #expect(h.installedManifest("A") == a.expectedManifest)
    }

    /// v1 is replaced by v2 (its folder retired, grace period 2 s); a daemon with nothing to install deletes v1's
    /// folder once the grace period has passed.
    @Test func anIdleDaemonDeletesAReplacedVersionAfterTheGracePeriod() throws {
        let h = try SyncHarness()
        try h.publishArchive(try DocsetFixture.make(version: "1"), as: "A-1.tgz", folder: "A")
        let v2 = try DocsetFixture.make(version: "2")
        try h.publishArchive(v2, as: "A-2.tgz", folder: "A")
        try h.writeAtomFeed("f.atom", [Self.entry("A", "1")])
        try h.writeConfig(feeds: ["f.atom"], extra: "[install]\ngrace_period = \"2s\"")
        #expect(try h.run(["sync"], environment: Tool.environment()).status == 0)
        try h.writeAtomFeed("f.atom", [Self.entry("A", "2")])
        try h.bumpModificationTime("f.atom")  // same size as before
        #expect(try h.run(["sync", "--refresh"], environment: Tool.environment()).status == 0)
        #expect(Self.versions(h).count == 2, "v1 is kept for its grace period: \(Self.versions(h))")

        let (daemon, out, _) = try SyncServiceTests.start(
            h, ["daemon", "--interval", "1s", "--jitter", "0s", "--json", "--test-minimum-interval", "1s"])
        defer { if daemon.isRunning { kill(daemon.processIdentifier, SIGKILL) } }
        let output = OutputReader(out)
        let deadline = Date().addingTimeInterval(60)
        while Self.versions(h).count > 1, Date() < deadline, daemon.isRunning {
            output.read(timeout: 0.2) { _ in false }  // drain the pipe; the folder itself is the condition
        }
        let left = Self.versions(h)
        kill(daemon.processIdentifier, SIGKILL)
        daemon.waitUntilExit()
        #expect(left.count == 1, "v1's folder was deleted by an idle cycle: \(left); daemon output: \(output.text)")
        #expect(!output.text.contains("\"event\":\"updated\"") && !output.text.contains("\"event\":\"installed\""))
        #expect(h.installedManifest("A") == v2.expectedManifest)
    }
}
