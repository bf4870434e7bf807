import DocSync
import DocSyncDownload
import Foundation
import TestSupport
import Testing

/// `docsync fetch` enforces sync's archive policy (one implementation, `DocSyncConfiguration.applyArchivePolicy`): the size
/// cap (`[install] max_archive_size`, `--max-size`) and HTTPS-First / `[network] require_https`.
@Suite(
    .enabled(if: Nginx.isInstalled, "nginx is not installed (scripts/bootstrap installs it)"),
    .timeLimit(.minutes(10)), .blockingWaits)
struct FetchPolicyTests {
    struct Row: Sendable, CustomStringConvertible {
        var maxArchiveSize: Int64
        var requireHTTPS: Bool
        var maxLength: Int64?
        var policy: SchemePolicy
        var description: String { "max \(maxArchiveSize) https-only \(requireHTTPS)" }
    }

    @Test(arguments: [
        Row(maxArchiveSize: 4 << 30, requireHTTPS: false, maxLength: 4 << 30, policy: .httpsFirst),
        Row(maxArchiveSize: 0, requireHTTPS: false, maxLength: nil, policy: .httpsFirst),
        Row(maxArchiveSize: 1 << 20, requireHTTPS: true, maxLength: 1 << 20, policy: .httpsOnly),
    ])
    func archivePolicyFromTheConfiguration(_ row: Row) {
        var config = DocSyncConfiguration(root: "r", staging: "s", state: "t")
        config.install.maxArchiveSize = row.maxArchiveSize
        config.network.requireHTTPS = row.requireHTTPS
        var download = DownloadConfiguration(stagingDirectory: "s")
        config.applyArchivePolicy(to: &download)
        #expect(download.maxLength == row.maxLength && download.schemePolicy == row.policy)
        #expect(download.http.httpsOnly == row.requireHTTPS)
    }

    /// A 3 MiB file on a real nginx, and an empty folder for the output and the configuration.
    func serve() throws -> (dir: TemporaryDirectory, nginx: Nginx) {
        let dir = try TemporaryDirectory("fetch-policy")
        try FileManager.default.createDirectory(atPath: dir.appending("www"), withIntermediateDirectories: true)
        var random = TestRandom(seed: 7)
        let bytes = (0..<(3 << 20)).map { _ in UInt8.random(in: 0...255, using: &random) }
        try Data(bytes).write(to: URL(fileURLWithPath: dir.appending("www/file.bin")))
        return (dir, try Nginx(root: dir.appending("www")))
    }

    func fetch(_ dir: TemporaryDirectory, _ arguments: [String]) throws -> Tool.Result {
        try Tool.run(
            Tool.docsyncBinary, ["fetch"] + arguments + ["--output", dir.appending("out/file.bin")],
            environment: ["PATH": "/usr/bin:/bin", "HOME": dir.path, "XDG_CONFIG_HOME": dir.appending("none")])
    }

    @Test func sizeCapFromTheOptionOrTheConfigurationRefusesBeforeDownloading() throws {
        let (dir, nginx) = try serve()
        defer { nginx.stop(); dir.remove() }
        let byOption = try fetch(dir, [nginx.url("file.bin"), "--max-size", "1M"])
        #expect(byOption.status == 65, "\(byOption.standardError)")
        #expect(byOption.standardError.contains("--max-size"), "\(byOption.standardError)")
        #expect(!FileManager.default.fileExists(atPath: dir.appending("out/file.bin")))

        try "[install]\nmax_archive_size = \"2M\"\n".write(
            toFile: dir.appending("docsync.toml"), atomically: true, encoding: .utf8)
        let byConfig = try fetch(dir, [nginx.url("file.bin"), "--config", dir.appending("docsync.toml")])
        #expect(byConfig.status == 65, "\(byConfig.standardError)")
        #expect(byConfig.standardError.contains("max_archive_size"), "\(byConfig.standardError)")

        let unlimited = try fetch(dir, [nginx.url("file.bin"), "--max-size", "0"])
        #expect(unlimited.status == 0, "\(unlimited.standardError)")
        #expect(try fetch(dir, [nginx.url("file.bin"), "--max-size", "lots"]).status == 64)
    }

    @Test func requireHTTPSRefusesPlainHTTPWithoutARequest() throws {
        let (dir, nginx) = try serve()
        defer { nginx.stop(); dir.remove() }
        try "[network]\nrequire_https = true\nretries = 1\n".write(
            toFile: dir.appending("docsync.toml"), atomically: true, encoding: .utf8)
        let refused = try fetch(dir, [nginx.url("file.bin"), "--config", dir.appending("docsync.toml")])
        #expect(refused.status != 0, "\(refused.standardError)")
        #expect(refused.standardError.contains("require_https"), "\(refused.standardError)")
        #expect(!FileManager.default.fileExists(atPath: dir.appending("out/file.bin")))
        // Only the https form was tried (nginx logs each TLS handshake as a bad request, method `-`).
        #expect(!nginx.accessLog().contains { $0.method == "GET" }, "plain http is never tried: \(nginx.accessLog())")

        // Without it (HTTPS-First, loopback exempt as in browsers): plain http, and a warning without --sha256.
        let plain = try fetch(dir, [nginx.url("file.bin")])
        #expect(plain.status == 0, "\(plain.standardError)")
        #expect(plain.standardError.contains("plain http without --sha256"), "\(plain.standardError)")
    }
}
