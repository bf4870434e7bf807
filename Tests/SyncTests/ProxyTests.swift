import DocSync
import Foundation
import TestSupport
import Testing

/// Syncs through a real proxy (tinyproxy on loopback): the `proxy` key, `http_proxy`, `https_proxy` (a CONNECT
/// tunnel to an https nginx) and `no_proxy`. The proxy's log and nginx's `Via` header show which way each request
/// went.
@Suite(
    .enabled(if: Nginx.isInstalled, "nginx is not installed (scripts/bootstrap installs it)"),
    .enabled(if: Tinyproxy.isInstalled, "tinyproxy is not installed (scripts/bootstrap installs it)"), .timeLimit(.minutes(10)), .blockingWaits)
struct ProxyTests {
    static func harness(tls: TestCertificates? = nil, extra: String = "") throws -> (SyncHarness, DocsetFixture) {
        let h = try SyncHarness(tls: tls, http2: tls != nil)
        let fixture = try DocsetFixture.make(version: "1")
        try h.publishArchive(fixture, as: "A.tgz", folder: "A")
        try h.writeAtomFeed("f.atom", [.init(identifier: "org.a", title: "A", version: "1", archive: "A.tgz")])
        try h.writeConfig(feeds: ["f.atom"], extra: extra)
        return (h, fixture)
    }

    /// Both requests (feed and archive) reached nginx through the proxy, and the proxy logged both.
    static func expectProxied(_ h: SyncHarness, _ proxy: Tinyproxy, _ result: Tool.Result) {
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        let log = h.nginx.waitForAccessLog { $0.count >= 2 }
        #expect(log.map(\.uri) == ["/f.atom", "/A.tgz"], "\(log)")
        #expect(log.allSatisfy { $0.via.contains(Tinyproxy.viaName) }, "every request came through the proxy: \(log)")
        let requests = proxy.requests()
        #expect(requests.contains("GET \(h.nginx.url("f.atom")) HTTP/1.1"), "\(requests)")
        #expect(requests.contains("GET \(h.nginx.url("A.tgz")) HTTP/1.1"), "\(requests)")
    }

    @Test func theProxyKeyRoutesFeedsAndArchivesThroughTheProxy() throws {
        let proxy = try Tinyproxy()
        defer { proxy.stop() }
        let (h, fixture) = try Self.harness(extra: "[network]\nproxy = \"\(proxy.url)\"")
        let result = try h.run(["sync", "--json"], environment: Tool.environment())
        Self.expectProxied(h, proxy, result)
        #expect(h.installedManifest("A") == fixture.expectedManifest)
    }

    @Test func theHTTPProxyVariableIsUsedWhenTheKeyIsUnset() throws {
        let proxy = try Tinyproxy()
        defer { proxy.stop() }
        let (h, fixture) = try Self.harness()
        let result = try h.run(["sync", "--json"], environment: Tool.environment(["http_proxy": proxy.url]))
        Self.expectProxied(h, proxy, result)
        #expect(h.installedManifest("A") == fixture.expectedManifest)
    }

    @Test func noProxyBypassesTheProxy() throws {
        let proxy = try Tinyproxy()
        defer { proxy.stop() }
        let (h, fixture) = try Self.harness()
        let result = try h.run(
            ["sync", "--json"], environment: Tool.environment(["http_proxy": proxy.url, "no_proxy": "127.0.0.1"]))
        #expect(result.status == 0, "\(result.standardError)")
        #expect(h.installedManifest("A") == fixture.expectedManifest)
        let log = h.nginx.waitForAccessLog { $0.count >= 2 }
        #expect(log.count == 2 && log.allSatisfy { $0.via == "-" }, "straight to nginx: \(log)")
        #expect(proxy.requests().isEmpty, "\(proxy.requests())")
    }

    /// https through the proxy is a CONNECT tunnel: the proxy sees only host and port, TLS (with the configured
    /// `ca_file`) and HTTP/2 (ALPN) run end to end with nginx.
    @Test func httpsProxyTunnelsHTTPSWithConnect() throws {
        let proxy = try Tinyproxy()
        defer { proxy.stop() }
        let certificates = try TestCertificates.shared()
        let (h, fixture) = try Self.harness(tls: certificates, extra: "[network]\nca_file = \"\(certificates.caFile)\"")
        let result = try h.run(["sync", "--json"], environment: Tool.environment(["https_proxy": proxy.url]))
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(h.installedManifest("A") == fixture.expectedManifest)
        let requests = proxy.requests()
        #expect(requests.contains { $0.hasPrefix("CONNECT \(TestCertificates.host):\(h.nginx.port) ") }, "\(requests)")
        let log = h.nginx.waitForAccessLog { $0.count >= 2 }
        #expect(log.map(\.uri) == ["/f.atom", "/A.tgz"] && log.allSatisfy { $0.proto == "HTTP/2.0" }, "\(log)")
    }
}
