import DocSync
import Foundation
import TestSupport
import Testing

/// A sync from an https nginx with a private CA: trusted through `[network] ca_file` or `CURL_CA_BUNDLE`, refused
/// with a clear certificate error otherwise, and a `ca_file` that cannot be read is a configuration error.
@Suite(
    .enabled(if: Nginx.isInstalled, "nginx is not installed (scripts/bootstrap installs it)"),
    .timeLimit(.minutes(10)), .blockingWaits)
struct SyncTLSTests {
    static func harness(extra: String = "") throws -> (SyncHarness, DocsetFixture) {
        let h = try SyncHarness(tls: try TestCertificates.shared(), http2: true)
        let fixture = try DocsetFixture.make(version: "1")
        try h.publishArchive(fixture, as: "A.tgz", folder: "A")
        try h.writeAtomFeed("f.atom", [.init(identifier: "org.a", title: "A", version: "1", archive: "A.tgz")])
        try h.writeConfig(feeds: ["f.atom"], extra: extra)
        return (h, fixture)
    }

    @Test func caFileInTheConfigurationIsTrustedAndHTTP2IsNegotiated() throws {
        let ca = try TestCertificates.shared().caFile
        let (h, fixture) = try Self.harness(extra: "[network]\nca_file = \"\(ca)\"")
        let result = try h.run(["sync", "--json"], environment: Tool.environment())
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(h.installedManifest("A") == fixture.expectedManifest)
        let log = h.nginx.waitForAccessLog { $0.count >= 2 }
        #expect(log.count == 2 && log.allSatisfy { $0.proto == "HTTP/2.0" }, "ALPN chose HTTP/2: \(log)")
    }

    @Test func curlCABundleIsHonouredBySync() throws {
        let (h, fixture) = try Self.harness()
        let ca = try TestCertificates.shared().caFile
        let result = try h.run(["sync", "--json"], environment: Tool.environment(["CURL_CA_BUNDLE": ca]))
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(h.installedManifest("A") == fixture.expectedManifest)
    }

    @Test func anUnknownCAFailsTheFeedWithACertificateError() throws {
        let (h, _) = try Self.harness()
        let result = try h.run(["sync", "--json"], environment: Tool.environment())
        #expect(result.status == 3, "\(result.standardOutput)\(result.standardError)")
        let failed = SyncHarness.events(result).first { $0["event"] as? String == "feed-failed" }
        let reason = (failed?["failure"] as? [String: Any])?["message"] as? String ?? ""
        #expect(reason.contains("TLS certificate not accepted") && reason.contains("ca_file"), "\(reason)")
        #expect(!FileManager.default.fileExists(atPath: "\(h.root)/A.docset"))
    }

    @Test func anArchiveOnAWrongHostNameFailsWithAHostNameError() throws {
        let ca = try TestCertificates.shared().caFile
        let (h, _) = try Self.harness(extra: "[network]\nca_file = \"\(ca)\"")
        let wrongHost = "https://127.0.0.1:\(h.nginx.port)/A.tgz"  // the certificate names localhost only
        try h.writeAtomFeed("f.atom", [.init(identifier: "org.a", title: "A", version: "1", archive: wrongHost)])
        let result = try h.run(["sync", "--json"], environment: Tool.environment())
        #expect(result.status == 3, "\(result.standardOutput)\(result.standardError)")
        let failed = SyncHarness.events(result).first { $0["event"] as? String == "failed" }
        let reason = (failed?["failure"] as? [String: Any])?["message"] as? String ?? ""
        #expect(reason.contains("TLS certificate not accepted") && reason.contains("host name"), "\(reason)")
        #expect(!FileManager.default.fileExists(atPath: "\(h.root)/A.docset"))
    }

    @Test func anUnreadableCAFileIsAConfigurationError() throws {
        let (h, _) = try Self.harness(extra: "[network]\nca_file = \"missing-ca.pem\"")
        let result = try h.run(["sync"], environment: Tool.environment())
        #expect(result.status != 0)
        #expect(result.standardError.contains("network.ca_file"), "\(result.standardError)")
        #expect(result.standardError.contains("missing-ca.pem"), "\(result.standardError)")
    }
}
