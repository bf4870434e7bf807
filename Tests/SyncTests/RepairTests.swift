import DocSync
import Foundation
import TestSupport
import Testing

/// Issue 11: `docsync verify` notices a damaged installed tree (exit 3) and `sync --repair` reinstalls it through
/// the normal atomic path.
@Suite(.timeLimit(.minutes(5))) struct RepairTests {
    @Test func verifyReportsDamageAndRepairReinstalls() throws {
        let h = try SyncHarness()
        let fixture = try DocsetFixture.make(version: "1.0")
        try h.publishArchive(fixture, as: "A.tgz", folder: "A")
        try h.writeAtomFeed("f.atom", [.init(identifier: "org.a", title: "A", version: "1.0", archive: "A.tgz")])
        try h.writeConfig(feeds: ["f.atom"])
        #expect(try h.run(["sync"]).status == 0)
        let intact = try h.run(["verify"])
        #expect(intact.status == 0 && intact.standardOutput.contains("intact    A"), "\(intact.standardOutput)")

        let version = URL(fileURLWithPath: "\(h.root)/A.docset").resolvingSymlinksInPath().path
        try FileManager.default.removeItem(atPath: "\(version)/Contents/Info.plist")
        let damaged = try h.run(["verify", "A"])
        #expect(damaged.status == 3, "\(damaged.standardOutput)")
        #expect(damaged.standardOutput.contains("missing Contents/Info.plist"), "\(damaged.standardOutput)")

        let plain = try h.run(["sync", "--json"])
        #expect(SyncHarness.names(SyncHarness.events(plain), "unchanged") == ["A"], "no repair without --repair")
        let repaired = try h.run(["sync", "--repair", "--json"])
        #expect(repaired.status == 0, "\(repaired.standardError)")
        #expect(SyncHarness.names(SyncHarness.events(repaired), "updated") == ["A"], "\(repaired.standardOutput)")
        #expect(h.installedManifest("A") == fixture.expectedManifest)
        #expect(try h.run(["verify"]).status == 0)
    }
}
