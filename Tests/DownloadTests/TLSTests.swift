import DocSyncDownload
import Foundation
import TestSupport
import Testing

/// https against a real nginx holding a certificate from a test CA made in this run: the CA is trusted only when
/// given (`fetch --ca-file`, `CURL_CA_BUNDLE`), a wrong host name or an unknown CA fails with an error that says
/// so, and HTTP/2 is negotiated through ALPN as with public servers (libcurl's default, no prior knowledge).
@Suite(
    .enabled(if: Nginx.isInstalled, "nginx is not installed (scripts/bootstrap installs it)"),
    .timeLimit(.minutes(10)), .blockingWaits)
struct TLSTests {
    private func serve(_ fixture: DownloadFixture, http2: Bool = true) throws -> Nginx {
        let root = fixture.directory.appending("www")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try Data(fixture.content).write(to: URL(fileURLWithPath: root + "/file.bin"))
        return try Nginx(root: root, http2: http2, tls: try TestCertificates.shared())
    }

    @Test func fetchTrustsTheCAGivenWithCaFileAndNegotiatesHTTP2ThroughALPN() throws {
        let f = try DownloadFixture(size: 2 << 20)
        defer { f.remove() }
        let nginx = try serve(f)
        defer { nginx.stop() }
        let ca = try TestCertificates.shared().caFile
        let run = try DocSyncProcess.fetch(
            [nginx.url("file.bin"), "--ca-file", ca, "--output", f.destination, "--sha256", f.sha256],
            environment: Tool.environment())
        #expect(run.status == 0, "\(run.standardError)")
        #expect(f.outputSHA256 == f.sha256)
        let log = nginx.waitForAccessLog { !$0.isEmpty }
        #expect(log.count == 1 && log.allSatisfy { $0.proto == "HTTP/2.0" && $0.status == 200 }, "\(log)")
    }

    @Test func curlCABundleFromTheEnvironmentIsHonoured() throws {
        let f = try DownloadFixture(size: 256 << 10)
        defer { f.remove() }
        let nginx = try serve(f, http2: false)
        defer { nginx.stop() }
        let ca = try TestCertificates.shared().caFile
        let run = try DocSyncProcess.fetch(
            [nginx.url("file.bin"), "--output", f.destination, "--sha256", f.sha256],
            environment: Tool.environment(["CURL_CA_BUNDLE": ca]))
        #expect(run.status == 0, "\(run.standardError)")
        #expect(f.outputSHA256 == f.sha256)
        #expect(nginx.waitForAccessLog { !$0.isEmpty }.map(\.proto) == ["HTTP/1.1"])
    }

    @Test func anUnknownCAFailsWithACertificateError() throws {
        let f = try DownloadFixture(size: 256 << 10)
        defer { f.remove() }
        let nginx = try serve(f)
        defer { nginx.stop() }
        let run = try DocSyncProcess.fetch(
            [nginx.url("file.bin"), "--output", f.destination], environment: Tool.environment())
        #expect(run.status == 69, "\(run.standardError)")
        #expect(run.standardError.contains("TLS certificate not accepted"), "\(run.standardError)")
        #expect(
            run.standardError.lowercased().contains("certificate problem"),
            "libcurl's reason is kept: \(run.standardError)")
        #expect(run.standardError.contains("ca_file"), "says how to trust a private CA: \(run.standardError)")
        #expect(!f.outputExists)
        #expect(nginx.accessLog().isEmpty, "no request was sent over the untrusted connection")
    }

    @Test func aWrongHostNameFailsEvenWithTheRightCA() throws {
        let f = try DownloadFixture(size: 256 << 10)
        defer { f.remove() }
        let nginx = try serve(f)
        defer { nginx.stop() }
        let ca = try TestCertificates.shared().caFile
        let wrongHost = "https://127.0.0.1:\(nginx.port)/file.bin"  // the certificate names localhost only
        let run = try DocSyncProcess.fetch(
            [wrongHost, "--ca-file", ca, "--output", f.destination], environment: Tool.environment())
        #expect(run.status == 69, "\(run.standardError)")
        #expect(run.standardError.contains("TLS certificate not accepted"), "\(run.standardError)")
        #expect(run.standardError.contains("host name"), "names the host-name mismatch: \(run.standardError)")
        #expect(!f.outputExists)
        #expect(nginx.accessLog().isEmpty)
    }

    @Test func anUnreadableCAFileIsAUsageError() throws {
        let f = try DownloadFixture(size: 1)
        defer { f.remove() }
        let missing = f.directory.appending("missing-ca.pem")
        let run = try DocSyncProcess.fetch(
            ["https://localhost:1/x", "--ca-file", missing, "--output", f.destination], environment: Tool.environment())
        #expect(run.status == 64, "\(run.standardError)")
        #expect(run.standardError.contains("--ca-file: cannot read \(missing)"), "\(run.standardError)")
    }

    /// The library as shipped (`HTTPOptions()`: automatic version) gets HTTP/2 through ALPN from an https server
    /// that offers it, and HTTP/1.1 from one that does not.
    @Test(arguments: [true, false]) func theLibraryUsesWhatALPNNegotiates(http2: Bool) async throws {
        let f = try DownloadFixture(size: 4 << 20)
        defer { f.remove() }
        let nginx = try serve(f, http2: http2)
        defer { nginx.stop() }
        var configuration = f.configuration()
        configuration.http.caFile = try TestCertificates.shared().caFile
        let result = try await Downloader(configuration: configuration)
            .download(f.request([nginx.url("file.bin")], sha256: f.sha256))
        #expect(result.bytes == Int64(f.content.count) && f.outputSHA256 == f.sha256)
        let log = nginx.waitForAccessLog { !$0.isEmpty }
        #expect(log.map(\.proto) == [http2 ? "HTTP/2.0" : "HTTP/1.1"], "\(log)")
    }
}
