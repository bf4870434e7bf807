import DocSync
import Foundation
import TestSupport
import Testing

/// docsync speaks http and https only: an archive URL (feed enclosure, Dash mirror) or a redirect (nginx, the
/// fault server) pointing at `file://`, `ftp://` or `gopher://` is refused with a clear error, nothing is read
/// from it and nothing is installed.
@Suite(
    .enabled(if: Nginx.isInstalled, "nginx is not installed (scripts/bootstrap installs it)"),
    .timeLimit(.minutes(10)), .blockingWaits)
struct ProtocolRestrictionTests {
    /// A local secret a `file://` URL would leak, and URLs of the three refused schemes.
    static let schemes = ["file", "ftp", "gopher"]

    static func target(_ scheme: String, secret: String) -> String {
        scheme == "file" ? "file://\(secret)" : "\(scheme)://127.0.0.1:1/A.tgz"
    }

    static func harness(locations: String = "") throws -> (SyncHarness, secret: String) {
        let h = try SyncHarness(locations: locations)
        try h.publishArchive(try DocsetFixture.make(version: "1"), as: "A.tgz", folder: "A")
        // A valid archive a file:// URL could read: refusing must not depend on the bytes being bad.
        let secret = h.dir.appending("secret.tgz")
        try FileManager.default.copyItem(atPath: "\(h.www)/A.tgz", toPath: secret)
        return (h, secret)
    }

    static func expectRefused(_ h: SyncHarness, _ result: Tool.Result, _ scheme: String) {
        #expect(result.status == 3, "\(scheme): \(result.standardOutput)\(result.standardError)")
        let failed = SyncHarness.events(result).first { $0["event"] as? String == "failed" }
        let reason = (failed?["failure"] as? [String: Any])?["message"] as? String ?? ""
        #expect(reason.contains("only http:// and https:// URLs are allowed"), "\(scheme): \(reason)")
        #expect(!FileManager.default.fileExists(atPath: "\(h.root)/A.docset"), "\(scheme): nothing installed")
    }

    @Test(arguments: schemes) func aFeedEnclosureWithAnotherSchemeIsRefused(scheme: String) throws {
        let (h, secret) = try Self.harness()
        let url = Self.target(scheme, secret: secret)
        try h.writeAtomFeed("f.atom", [.init(identifier: "org.a", title: "A", version: "1", archive: url)])
        try h.writeConfig(feeds: ["f.atom"])
        Self.expectRefused(h, try h.run(["sync", "--json"], environment: Tool.environment()), scheme)
    }

    @Test(arguments: schemes) func aDashMirrorWithAnotherSchemeIsRefused(scheme: String) throws {
        let (h, secret) = try Self.harness()
        try h.writeDashFeed("A.xml", version: "1", alternates: [Self.target(scheme, secret: secret)])
        try h.writeConfig(feeds: ["A.xml"])
        Self.expectRefused(h, try h.run(["sync", "--json"], environment: Tool.environment()), scheme)
    }

    /// A refused mirror is skipped for the next one, like a dead mirror.
    @Test func aRefusedMirrorFallsThroughToTheNextOne() throws {
        let (h, secret) = try Self.harness()
        try h.writeDashFeed("A.xml", version: "1", alternates: ["file://\(secret)", h.nginx.url("A.tgz")])
        try h.writeConfig(feeds: ["A.xml"])
        let result = try h.run(["sync", "--json"], environment: Tool.environment())
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(h.nginx.waitForAccessLog { $0.count >= 2 }.map(\.uri) == ["/A.xml", "/A.tgz"])
    }

    @Test(arguments: schemes) func anNginxRedirectToAnotherSchemeIsRefused(scheme: String) throws {
        let secret = FileManager.default.temporaryDirectory.path + "/docsync-no-such-secret"
        let location = Self.target(scheme, secret: secret)
        let (h, _) = try Self.harness(locations: "location = /moved.tgz { return 302 \(location); }")
        try h.writeAtomFeed("f.atom", [.init(identifier: "org.a", title: "A", version: "1", archive: "moved.tgz")])
        try h.writeConfig(feeds: ["f.atom"])
        let result = try h.run(["sync", "--json"], environment: Tool.environment())
        Self.expectRefused(h, result, scheme)
        let log = h.nginx.waitForAccessLog { $0.contains { $0.uri == "/moved.tgz" } }
        #expect(log.first { $0.uri == "/moved.tgz" }?.status == 302, "\(log)")
    }

    @Test(arguments: schemes) func aFaultServerRedirectToAnotherSchemeIsRefused(scheme: String) throws {
        let (h, secret) = try Self.harness()
        let location = Self.target(scheme, secret: secret)
        let server = try FaultServer { _, _ in
            FaultResponse(status: 302, reason: "Found", headers: [("Location", location)])
        }
        defer { server.stop() }
        try h.writeAtomFeed(
            "f.atom", [.init(identifier: "org.a", title: "A", version: "1", archive: server.url("A.tgz"))])
        try h.writeConfig(feeds: ["f.atom"])
        Self.expectRefused(h, try h.run(["sync", "--json"], environment: Tool.environment()), scheme)
        #expect(server.requests.count >= 1)
    }

    /// A feed URL redirected away from http(s) fails that feed with the same clear error.
    @Test func aFeedRedirectToFileIsRefused() throws {
        let (h, secret) = try Self.harness(locations: "location = /f.atom { return 302 file:///etc/passwd; }")
        _ = secret
        try h.writeConfig(feeds: ["f.atom"])
        let result = try h.run(["sync", "--json"], environment: Tool.environment())
        #expect(result.status == 3, "\(result.standardOutput)\(result.standardError)")
        let failed = SyncHarness.events(result).first { $0["event"] as? String == "feed-failed" }
        let reason = (failed?["failure"] as? [String: Any])?["message"] as? String ?? ""
        #expect(reason.contains("only http:// and https:// URLs are allowed"), "\(reason)")
    }
}
