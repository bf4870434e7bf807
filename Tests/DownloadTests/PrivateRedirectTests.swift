import DocSyncDownload
import DocSyncHTTP
import Foundation
import TestSupport
import Testing

/// Redirects from a public address to a private one (cloud metadata, the LAN, loopback) through the real libcurl
/// path. Tests can only listen on loopback, so the "public" server is a loopback endpoint the classifier is told
/// to treat as public (`AddressClassifier.publicEndpoints`); the check itself runs on the address libcurl connects
/// to, before connecting.
@Suite(.timeLimit(.minutes(10))) struct PrivateRedirectTests {
    private struct Pair {
        let front: FaultServer
        let target: FaultServer

        func stop() {
            front.stop()
            target.stop()
        }
    }

    /// `front` answers every request with a 302 to `target`, which serves `content`.
    private func servers(_ content: [UInt8]) throws -> Pair {
        let target = try FaultServer { request, _ in FaultResponse.serve(content, to: request) }
        let location = target.url("file")
        let front = try FaultServer { _, _ in FaultResponse(status: 302, headers: [("Location", location)]) }
        return Pair(front: front, target: target)
    }

    private func download(
        _ f: DownloadFixture, _ pair: Pair, publicEndpoints: Set<String>, allowPrivate: Bool = false
    ) async -> Result<DownloadResult, DownloadError> {
        var configuration = f.configuration(maxAttempts: 2)
        configuration.http.addressClassifier = AddressClassifier(publicEndpoints: publicEndpoints)
        configuration.http.allowPrivateRedirects = allowPrivate
        do {
            return .success(
                try await Downloader(configuration: configuration).download(
                    f.request([pair.front.url("file")], sha256: f.sha256)))
        } catch {
            return .failure(error)
        }
    }

    @Test func aRedirectFromPublicToPrivateIsRefusedBeforeConnecting() async throws {
        let f = try DownloadFixture(size: 256 << 10)
        defer { f.remove() }
        let pair = try servers(f.content)
        defer { pair.stop() }
        let outcome = await download(f, pair, publicEndpoints: ["127.0.0.1:\(pair.front.port)"])
        guard case .failure(let error) = outcome else {
            Issue.record("the redirect to a private address was followed")
            return
        }
        #expect(error.transportKind == .redirectRefused && !error.isTransient, "\(error)")
        #expect(error.reason.contains("allow_private_redirects"), "\(error)")
        #expect(pair.target.requests.isEmpty, "the private server never saw a request")
        #expect(!f.outputExists)
    }

    @Test func allowPrivateRedirectsFollowsIt() async throws {
        let f = try DownloadFixture(size: 256 << 10)
        defer { f.remove() }
        let pair = try servers(f.content)
        defer { pair.stop() }
        let outcome = await download(
            f, pair, publicEndpoints: ["127.0.0.1:\(pair.front.port)"], allowPrivate: true)
        #expect((try? outcome.get()) != nil, "\(outcome)")
        #expect(f.outputSHA256 == f.sha256)
    }

    @Test func aPrivateOriginalMayRedirectToPrivate() async throws {
        let f = try DownloadFixture(size: 256 << 10)
        defer { f.remove() }
        let pair = try servers(f.content)
        defer { pair.stop() }
        let outcome = await download(f, pair, publicEndpoints: [])
        #expect((try? outcome.get()) != nil, "\(outcome)")
        #expect(pair.target.requests.count == 1)
    }

    @Test func publicToPublicIsFollowed() async throws {
        let f = try DownloadFixture(size: 256 << 10)
        defer { f.remove() }
        let pair = try servers(f.content)
        defer { pair.stop() }
        let endpoints: Set = ["127.0.0.1:\(pair.front.port)", "127.0.0.1:\(pair.target.port)"]
        let outcome = await download(f, pair, publicEndpoints: endpoints)
        #expect((try? outcome.get()) != nil, "\(outcome)")
    }

    /// Feeds go through the same transport: `HTTPClient().get` refuses the hop too.
    @Test func aFeedRedirectToPrivateIsRefused() async throws {
        let pair = try servers(Array("<feed/>".utf8))
        defer { pair.stop() }
        var options = HTTPOptions()
        options.addressClassifier = AddressClassifier(publicEndpoints: ["127.0.0.1:\(pair.front.port)"])
        do {
            let request = HTTPRequest(url: pair.front.url("f.atom"), options: options)
            _ = try await HTTPClient().get(request, maxBodyBytes: 1 << 20)
            Issue.record("followed")
        } catch {
            guard case .transport(let transport) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(transport.kind == .redirectRefused)
        }
        #expect(pair.target.requests.isEmpty)
    }
}
