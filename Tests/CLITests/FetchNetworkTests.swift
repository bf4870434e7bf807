import DocSync
import DocSyncHTTP
import Foundation
import TestSupport
import Testing

/// `docsync fetch` uses the configuration's `[network]` transport settings, as sync does (one implementation,
/// `DocSyncConfiguration.httpOptions`): a proxy set only in the configuration carries the download.
@Suite(
    .enabled(if: Nginx.isInstalled, "nginx is not installed (scripts/bootstrap installs it)"),
    .timeLimit(.minutes(10)), .blockingWaits)
struct FetchNetworkTests {
    @Test func transportOptionsComeFromTheNetworkSection() {
        var config = DocSyncConfiguration(root: "r", staging: "s", state: "t")
        config.network.connectTimeout = .seconds(7)
        config.network.stallTimeout = .seconds(9)
        config.network.minSpeed = 0  // libcurl's low-speed limit needs at least 1 B/s
        config.network.rateLimit = 1 << 20
        config.network.proxy = "http://proxy.example:3128"
        config.network.caFile = "/etc/ca.pem"
        config.network.requireHTTPS = true
        config.network.allowPrivateRedirects = true
        let options = config.httpOptions
        #expect(options.connectTimeout == 7 && options.lowSpeedTime == 9 && options.lowSpeedLimit == 1)
        #expect(options.maxReceiveRate == 1 << 20 && options.proxy == "http://proxy.example:3128")
        #expect(options.caFile == "/etc/ca.pem" && options.httpsOnly && options.allowPrivateRedirects)
        let defaults = DocSyncConfiguration(root: "r", staging: "s", state: "t").httpOptions
        #expect(defaults.proxy == nil && defaults.maxReceiveRate == 0 && !defaults.allowPrivateRedirects)
    }

    @Test(.enabled(if: Tinyproxy.isInstalled, "tinyproxy is not installed (scripts/bootstrap installs it)"))
    func theProxyKeyCarriesTheDownload() throws {
        let dir = try TemporaryDirectory("fetch-network")
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.appending("www"), withIntermediateDirectories: true)
        let bytes = Array(repeating: UInt8(ascii: "d"), count: 256 << 10)
        try Data(bytes).write(to: URL(fileURLWithPath: dir.appending("www/file.bin")))
        let nginx = try Nginx(root: dir.appending("www"))
        defer { nginx.stop() }
        let proxy = try Tinyproxy()
        defer { proxy.stop() }
        try "[network]\nproxy = \"\(proxy.url)\"\n".write(
            toFile: dir.appending("docsync.toml"), atomically: true, encoding: .utf8)
        let result = try Tool.run(
            Tool.docsyncBinary,
            ["fetch", nginx.url("file.bin"), "--output", dir.appending("out/file.bin"), "--config",
                dir.appending("docsync.toml")],
            environment: ["PATH": "/usr/bin:/bin", "HOME": dir.path, "XDG_CONFIG_HOME": dir.appending("none")])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(FileManager.default.contents(atPath: dir.appending("out/file.bin")) == Data(bytes))
        let log = nginx.waitForAccessLog { !$0.isEmpty }
        #expect(!log.isEmpty && log.allSatisfy { $0.via.contains(Tinyproxy.viaName) }, "through the proxy: \(log)")
        #expect(proxy.requests().contains("GET \(nginx.url("file.bin")) HTTP/1.1"), "\(proxy.requests())")
    }
}
