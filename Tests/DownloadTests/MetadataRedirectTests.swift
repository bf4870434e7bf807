import DocSyncDownload
import DocSyncHTTP
import Foundation
import TestSupport
import Testing

/// A redirect from a feed or archive server on a private (loopback) address to the cloud metadata address
/// 169.254.169.254, to a metadata host name, or to another private host is refused by the policy before any
/// connection (the error is `redirectRefused` naming the key that allows it — a connection attempt to
/// 169.254.169.254 would fail with a connect error or time out, one to 127.0.0.2 would be refused by the kernel);
/// a link-local URL is not requested even as the first request; `allow_link_local` opens it.
@Suite(.timeLimit(.minutes(10))) struct MetadataRedirectTests {
    static let targets = [
        ("http://169.254.169.254/latest/meta-data/", "allow_link_local"),
        ("http://[fe80::1]/latest/meta-data/", "allow_link_local"),
        ("//169.254.169.254/latest/meta-data/", "allow_link_local"),
        ("http://[::ffff:169.254.169.254]/latest/meta-data/", "allow_link_local"),
        ("http://metadata.google.internal/computeMetadata/v1/", "allow_link_local"),
        ("http://METADATA/computeMetadata/v1/", "allow_link_local"),
        ("http://instance-data/latest/meta-data/", "allow_link_local"),
        ("http://127.0.0.2:9/internal", "allow_private_redirects"),
    ]

    static func options() -> HTTPOptions {
        var options = HTTPOptions()
        options.connectTimeout = 20  // an attempted connection to 169.254.169.254 would take this long
        return options
    }

    @Test(arguments: targets)
    func aFeedRedirectIsRefusedBeforeConnecting(target: String, key: String) async throws {
        let front = try FaultServer { _, _ in FaultResponse(status: 302, headers: [("Location", target)]) }
        defer { front.stop() }
        do {
            let request = HTTPRequest(url: front.url("f.atom"), options: Self.options())
            _ = try await HTTPClient().get(request, maxBodyBytes: 1 << 20)
            Issue.record("the redirect to \(target) was followed")
        } catch {
            guard case .transport(let transport) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(transport.kind == .redirectRefused, "\(transport)")
            #expect(transport.message.contains(key), "\(transport)")
        }
        #expect(front.requests.count == 1)
    }

    @Test(arguments: targets)
    func anArchiveRedirectIsRefusedBeforeConnecting(target: String, key: String) async throws {
        let f = try DownloadFixture(size: 64 << 10)
        defer { f.remove() }
        let front = try FaultServer { _, _ in FaultResponse(status: 302, headers: [("Location", target)]) }
        defer { front.stop() }
        var configuration = f.configuration(maxAttempts: 1)
        configuration.http = Self.options()
        do {
            _ = try await Downloader(configuration: configuration).download(
                f.request([front.url("file")], sha256: f.sha256))
            Issue.record("the redirect to \(target) was followed")
        } catch {
            #expect(error.transportKind == .redirectRefused && !error.isTransient, "\(error)")
            #expect(error.reason.contains(key), "\(error)")
        }
        #expect(!f.outputExists)
    }

    @Test func aLinkLocalURLIsNotRequestedAtAll() async throws {
        do {
            _ = try await HTTPClient().get(
                HTTPRequest(url: "http://169.254.169.254/latest/meta-data/", options: Self.options()), maxBodyBytes: 1)
            Issue.record("requested")
        } catch {
            guard case .transport(let transport) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(transport.kind == .redirectRefused && transport.message.contains("allow_link_local"))
        }
    }

    /// With `allow_link_local` a link-local URL is no longer refused by the policy: the connection is attempted
    /// (and fails here, with a connect error rather than a refusal). A redirect to the same private host (another
    /// port) is followed without any key.
    @Test func allowLinkLocalLetsTheRequestThrough() async throws {
        var options = Self.options()
        options.allowLinkLocal = true
        options.connectTimeout = 1
        do {
            let request = HTTPRequest(url: "http://169.254.169.254:9/x", options: options)
            _ = try await HTTPClient().get(request, maxBodyBytes: 1)
        } catch {
            if case .transport(let transport) = error { #expect(transport.kind != .redirectRefused, "\(transport)") }
        }
        let target = try FaultServer { request, _ in FaultResponse.serve(Array("<feed/>".utf8), to: request) }
        defer { target.stop() }
        let front = try FaultServer { _, _ in FaultResponse(status: 302, headers: [("Location", target.url("f"))]) }
        defer { front.stop() }
        let request = HTTPRequest(url: front.url("f"), options: Self.options())
        let response = try await HTTPClient().get(request, maxBodyBytes: 1 << 20)
        #expect(response.body == Array("<feed/>".utf8))
    }
}
