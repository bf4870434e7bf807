import DocSync
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `docsync verify` notices a damaged installed tree (exit 3) and `sync --repair` reinstalls it through
/// the normal atomic path. A plain `sync` notices a missing or resized essential file too (an lstat each
/// against the manifest), reports the docset `failed` with code `damaged` (exit 3) instead of "unchanged".
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct RepairTests {
    @Test func verifyReportsDamageAndRepairReinstalls() async throws {
        let h = try SyncHarness.inMemory()
        let fixture = try DocsetFixture.make(version: "1.0")
        try h.publishArchive(fixture, as: "A.tgz", folder: "A")
        try h.writeAtomFeed("f.atom", [.init(identifier: "org.a", title: "A", version: "1.0", archive: "A.tgz")])
        try h.writeConfig(feeds: ["f.atom"])
        let first = try await h.sync()
        #expect(first.status == 0, "\(first.lines)")
        let intact = try h.run(["verify"])
        #expect(intact.status == 0 && intact.standardOutput.contains("intact    A"), "\(intact.standardOutput)")

        let version = URL(fileURLWithPath: "\(h.root)/A.docset").resolvingSymlinksInPath().path
        try FileManager.default.removeItem(atPath: "\(version)/Contents/Info.plist")
        let damaged = try h.run(["verify", "A"])
        #expect(damaged.status == 3, "\(damaged.standardOutput)")
        #expect(damaged.standardOutput.contains("missing Contents/Info.plist"), "\(damaged.standardOutput)")

        let plain = try await h.sync()
        #expect(plain.status == 3, "\(plain.lines)")
        #expect(SyncHarness.names(plain.events, "unchanged").isEmpty, "a damaged docset is not unchanged")
        #expect(SyncHarness.names(plain.events, "failed") == ["A"], "no repair without --repair")
        let repaired = try await h.sync(SyncOptions(repair: true))
        #expect(repaired.status == 0, "\(repaired.lines)")
        #expect(SyncHarness.names(repaired.events, "updated") == ["A"], "\(repaired.lines)")
        #expect(h.installedManifest("A") == fixture.expectedManifest)
        #expect(try h.run(["verify"]).status == 0)
    }

    /// Each essential file, deleted or resized, makes a plain sync say `damaged` (naming it and `--repair`), and
    /// `--repair` brings it back; a damaged `meta.json` makes the version unknown, and the plain sync reinstalls it.
    @Test(arguments: [
        ("Contents/Info.plist", "missing"), ("Contents/Resources/docSet.dsidx", "missing"),
        ("Contents/Resources/docSet.dsidx", "truncate"), ("Contents/Resources/Documents", "missing"),
        ("meta.json", "missing"), ("meta.json", "truncate"),
    ])
    func aPlainSyncReportsADamagedEssentialFile(path: String, damage: String) async throws {
        let h = try SyncHarness.inMemory()
        let fixture = try DocsetFixture.make(version: "1.0")
        try h.publishArchive(fixture, as: "A.tgz", folder: "A")
        try h.writeAtomFeed("f.atom", [.init(identifier: "org.a", title: "A", version: "1.0", archive: "A.tgz")])
        try h.writeConfig(feeds: ["f.atom"])
        let first = try await h.sync()
        #expect(first.status == 0, "\(first.lines)")
        let version = URL(fileURLWithPath: "\(h.root)/A.docset").resolvingSymlinksInPath().path
        if damage == "missing" {
            try FileManager.default.removeItem(atPath: "\(version)/\(path)")
        } else {
            #expect(truncate("\(version)/\(path)", 10) == 0)
        }
        let plain = try await h.sync()
        if path == "meta.json" {  // without a readable meta.json the version is unknown: sync reinstalls it
            #expect(plain.status == 0, "\(plain.lines)")
            #expect(SyncHarness.names(plain.events, "updated") == ["A"], "\(plain.lines)")
            #expect(h.installedManifest("A") == fixture.expectedManifest)
            return
        }
        #expect(plain.status == 3, "\(plain.lines)")
        let failed = plain.events.first { $0["event"] as? String == "failed" }
        let failure = failed?["failure"] as? [String: Any]
        #expect(failure?["code"] as? String == "damaged", "\(plain.lines)")
        let message = failure?["message"] as? String ?? ""
        #expect(message.contains(path) && message.contains("repair"), "\(message)")  // no CLI flag in a library message

        let repaired = try await h.sync(SyncOptions(repair: true))
        #expect(repaired.status == 0, "\(repaired.lines)")
        #expect(SyncHarness.names(repaired.events, "updated") == ["A"], "\(repaired.lines)")
        let after = try await h.sync()
        #expect(after.status == 0 && SyncHarness.names(after.events, "unchanged") == ["A"])
    }

    @Test func aChangedPageOfTheSameSizeIsLeftToVerify() async throws {
        let h = try SyncHarness.inMemory()
        try h.publishArchive(DocsetFixture.make(version: "1.0"), as: "A.tgz", folder: "A")
        try h.writeAtomFeed("f.atom", [.init(identifier: "org.a", title: "A", version: "1.0", archive: "A.tgz")])
        try h.writeConfig(feeds: ["f.atom"])
        let first = try await h.sync()
        #expect(first.status == 0, "\(first.lines)")
        let version = URL(fileURLWithPath: "\(h.root)/A.docset").resolvingSymlinksInPath().path
        let page = "\(version)/Contents/Resources/Documents/page0.html"
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: page)))
        bytes[0] ^= 0x20
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: page)
        try Data(bytes).write(to: URL(fileURLWithPath: page))
        let plain = try await h.sync()
        #expect(plain.status == 0 && SyncHarness.names(plain.events, "unchanged") == ["A"])
        #expect(try h.run(["verify", "A"]).status == 3)
    }
}
