import DocSync
import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `prune = true` through real syncs, and the grace period ending while `SyncService` (the daemon's loop) only runs
/// idle cycles: in process, against a `MemoryOrigin`.
@Suite(.timeLimit(.minutes(10))) struct PruneAndGraceTests {
    static func entry(_ name: String, _ version: String) -> SyncHarness.AtomEntry {
        .init(identifier: "org.\(name.lowercased())", title: name, version: version, archive: "\(name)-\(version).tgz")
    }

    static func versions(_ h: SyncHarness) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "\(h.root)/.docsync/versions")) ?? []).sorted()
    }

    @Test(arguments: [true, false]) func aDocsetDroppedFromTheFeedIsRemovedOnlyWithPrune(prune: Bool) async throws {
        let h = try SyncHarness.inMemory()
        let a = try DocsetFixture.make(version: "1")
        try h.publishArchive(a, as: "A-1.tgz", folder: "A")
        try h.publishArchive(try DocsetFixture.make(version: "1"), as: "B-1.tgz", folder: "B")
        try h.writeAtomFeed("f.atom", [Self.entry("A", "1"), Self.entry("B", "1")])
        try h.writeConfig(feeds: ["f.atom"], extra: "prune = \(prune)")
        #expect(try await h.sync().status == 0)
        #expect(FileManager.default.fileExists(atPath: "\(h.root)/B.docset"))

        try h.writeAtomFeed("f.atom", [Self.entry("A", "1")])
        let result = try await h.sync(SyncOptions(refresh: true))
        #expect(result.status == 0, "\(result.lines)")
        var status = stat()
        let bPresent = lstat("\(h.root)/B.docset", &status) == 0
        if prune {
            #expect(SyncHarness.names(result.events, "removed") == ["B"], "\(result.lines)")
            #expect(!bPresent, "B.docset is gone from the root")
        } else {
            #expect(SyncHarness.names(result.events, "orphaned") == ["B"], "\(result.lines)")
            #expect(bPresent && h.installedManifest("B") != nil, "B.docset is only reported")
        }
        #expect(h.installedManifest("A") == a.expectedManifest)
    }

    /// v1 is replaced by v2 (its folder retired, grace period 10 s: the second sync, slow on a loaded machine, ends well
    /// inside it); the daemon's loop with nothing to install deletes v1's folder once the grace period has passed.
    @Test func anIdleDaemonDeletesAReplacedVersionAfterTheGracePeriod() async throws {
        let h = try SyncHarness.inMemory()
        try h.publishArchive(try DocsetFixture.make(version: "1"), as: "A-1.tgz", folder: "A")
        let v2 = try DocsetFixture.make(version: "2")
        try h.publishArchive(v2, as: "A-2.tgz", folder: "A")
        try h.writeAtomFeed("f.atom", [Self.entry("A", "1")])
        try h.writeConfig(feeds: ["f.atom"], extra: "[install]\ngrace_period = \"10s\"")
        #expect(try await h.sync().status == 0)
        try h.writeAtomFeed("f.atom", [Self.entry("A", "2")])
        #expect(try await h.sync(SyncOptions(refresh: true)).status == 0)
        #expect(Self.versions(h).count == 2, "v1 is kept for its grace period: \(Self.versions(h))")

        let kinds = Mutex<[String]>([])
        var logger = Logger(label: "test.prune-and-grace")
        logger.logLevel = .critical
        let service = SyncService(engine: try h.engine(), interval: .seconds(1), logger: logger) { event in
            kinds.withLock { $0.append(event.kind) }
        }
        let group = ServiceGroup(services: [service], logger: logger)
        let running = BlockingTestExecutor.task { try await group.run() }
        var timedOut: (any Error)?
        do {
            try await Poll.until("v1's folder deleted by an idle cycle", timeout: 60) { () async in
                Self.versions(h).count == 1
            }
        } catch {
            timedOut = error
        }
        await group.triggerGracefulShutdown()
        try await running.value
        let seen = kinds.withLock { $0 }
        #expect(timedOut == nil, "\(timedOut.map { "\($0)" } ?? ""): \(Self.versions(h)); events: \(seen)")
        #expect(!seen.contains("updated") && !seen.contains("installed"), "\(seen)")
        #expect(h.installedManifest("A") == v2.expectedManifest)
    }
}
