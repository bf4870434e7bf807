import DocSync
import DocSyncDownload
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A partial download of a version that can never be planned again — its docset installed newer by this
/// run — is deleted at the end of that run, whatever `partial_max_age` says; a partial whose version is still
/// planned is kept for the next run to resume.
@Suite(
    .enabled(if: Nginx.isInstalled, "nginx is not installed (scripts/bootstrap installs it)"),
    .timeLimit(.minutes(10)), .blockingWaits)
struct SupersededPartialTests {
    @Test func aKilledDownloadOfASupersededVersionIsDeletedWhenTheNewerOneIsInstalled() throws {
        let h = try SyncHarness(limitRate: 64 << 10)
        try h.publishArchive(SyncHarness.bigFixture(version: "1.0"), as: "A-1.tgz", folder: "A")
        try h.publishArchive(SyncHarness.bigFixture(version: "1.0"), as: "B-1.tgz", folder: "B")
        try h.writeAtomFeed(
            "f.atom",
            [
                .init(identifier: "org.a", title: "A", version: "1.0", archive: "A-1.tgz"),
                .init(identifier: "org.b", title: "B", version: "1.0", archive: "B-1.tgz"),
            ])
        try h.writeConfig(feeds: ["f.atom"], extra: "[install]\npartial_max_age = \"7d\"")
        let staging = h.dir.appending("staging")

        // A sync killed while both archives are downloading leaves a partial of each.
        let (sync, _, _) = try SyncHarness.start(h, ["sync"])
        defer { if sync.isRunning { kill(sync.processIdentifier, SIGKILL) } }
        func partials() -> [String: Int64] {
            Dictionary(PartialDownload.list(in: staging).map { ($0.key, $0.bytes) }, uniquingKeysWith: max)
        }
        try? Poll.until("a partial of each archive", timeout: 60, every: 0.05) {
            (partials()["org.a@1.0"] ?? 0) > 0 && (partials()["org.b@1.0"] ?? 0) > 0
        }
        kill(sync.processIdentifier, SIGKILL)
        _ = sync.waitForExit()
        #expect((partials()["org.a@1.0"] ?? 0) > 0 && (partials()["org.b@1.0"] ?? 0) > 0, "\(partials())")

        // The feed moves A to 2.0 (small); B's archive is gone for now, so B 1.0 stays planned and fails.
        try h.publishArchive(DocsetFixture.make(version: "2.0"), as: "A-2.tgz", folder: "A")
        try FileManager.default.removeItem(atPath: "\(h.www)/B-1.tgz")
        try h.writeAtomFeed(
            "f.atom",
            [
                .init(identifier: "org.a", title: "A", version: "2.0", archive: "A-2.tgz"),
                .init(identifier: "org.b", title: "B", version: "1.0", archive: "B-1.tgz"),
            ])
        try h.bumpModificationTime("f.atom")
        let run = try BoundedRun.run(h, ["sync", "--json"], deadline: 120)
        #expect(!run.killed)
        #expect(run.status == 3, "B fails: \(run.standardError)")
        #expect(SyncHarness.names(run.events, "installed") == ["A"], "\(run.standardOutput)")

        let left = partials()
        #expect(left["org.a@1.0"] == nil, "the superseded partial is deleted: \(left)")
        #expect((left["org.b@1.0"] ?? 0) > 0, "the planned partial is kept: \(left)")
        let stemA = StagingName.forKey("org.a@1.0")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: staging)) ?? []
        #expect(!files.contains { $0.hasPrefix(stemA) }, "\(files)")
        #expect(files.contains { $0.hasPrefix(StagingName.forKey("org.b@1.0")) && $0.hasSuffix(".part") }, "\(files)")
    }
}
