import DocSync
import Foundation
import TestSupport
import Testing

/// `source = "kapeli"` obeys `[catalog] mirrors` first, like every catalogue source: a host configured with a
/// campus mirror never reaches the feed's public `<url>`s while the mirror has the archive — not on the first
/// install, and not later when learned ordering would "explore" never-measured hosts.
@Suite(
    .enabled(if: Nginx.isInstalled, "nginx is not installed (scripts/bootstrap installs it)"),
    .timeLimit(.minutes(10)), .blockingWaits)
struct KapeliAlternatesTests {
    @Test func theFeedsPublicURLsAreOnlyFallbacksAfterTheConfiguredMirrors() throws {
        let h = try SyncHarness()
        let publicDir = h.dir.appending("public")
        try FileManager.default.createDirectory(atPath: "\(publicDir)/feeds", withIntermediateDirectories: true)
        let publicHost = try Nginx(root: publicDir)  // stands for the *.kapeli.com hosts; every request is logged
        defer { publicHost.stop() }
        for name in ["ActionScript", "Go"] {
            try h.publish(try DocsetFixture.make(version: "1", documents: 2), at: "campus/\(name).tgz", folder: name)
        }
        // Rust is on the public host only: the fallback still works (and proves the counter counts).
        try FileManager.default.createDirectory(atPath: "\(h.www)/feeds", withIntermediateDirectories: true)
        try DocsetFixture.make(version: "1", documents: 2).writeArchive(
            to: "\(publicDir)/feeds/Rust.tgz", prefix: "Rust.docset/")
        for name in ["ActionScript", "Go", "Rust"] {
            try ServedFile.write(
                "<entry><version>1/2</version><url>\(publicHost.url("feeds/\(name).tgz"))</url></entry>\n",
                to: "\(h.www)/feeds/\(name).xml")
        }
        let docset = { (name: String) in "name = \"\(name)\"\nsource = \"kapeli\"" }
        try h.writeCatalogConfig(docsets: [docset("ActionScript")], zeal: nil, alternates: [h.nginx.url("campus")])
        let first = try h.run(["sync", "--json"])
        #expect(first.status == 0, "\(first.standardError)\(first.standardOutput)")
        #expect(SyncHarness.names(SyncHarness.events(first), "installed") == ["ActionScript"])
        #expect(publicHost.accessLog().isEmpty, "the public host was asked: \(publicHost.accessLog())")

        // The campus mirror is measured now, the public host never was: it still comes second.
        try h.writeCatalogConfig(
            docsets: [docset("ActionScript"), docset("Go")], zeal: nil, alternates: [h.nginx.url("campus")])
        let second = try h.run(["sync", "--json"])
        #expect(second.status == 0, "\(second.standardError)\(second.standardOutput)")
        #expect(SyncHarness.names(SyncHarness.events(second), "installed") == ["Go"])
        #expect(publicHost.accessLog().isEmpty, "the public host was asked: \(publicHost.accessLog())")

        // An archive the mirror lacks comes from the feed's own URL.
        try h.writeCatalogConfig(
            docsets: [docset("ActionScript"), docset("Go"), docset("Rust")], zeal: nil,
            alternates: [h.nginx.url("campus")])
        let third = try h.run(["sync", "--json"])
        #expect(third.status == 0, "\(third.standardError)\(third.standardOutput)")
        #expect(SyncHarness.names(SyncHarness.events(third), "installed") == ["Rust"])
        #expect(publicHost.accessLog().map(\.uri).allSatisfy { $0 == "/feeds/Rust.tgz" })
        #expect(!publicHost.accessLog().isEmpty)
    }
}
