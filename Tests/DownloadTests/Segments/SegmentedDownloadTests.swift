import DocSyncDownload
import DocSyncHTTP
import DocSyncSupport
import Foundation
import Synchronization
import TestSupport
import Testing

/// Segmented downloads against scripted transports and the fault server ("Tests"): every case ends in
/// the origin's exact bytes or a clear error with no output file.
@Suite(.timeLimit(.minutes(10))) struct SegmentedDownloadTests {
    static let size = 16 << 20

    private func expectOrigin(_ f: DownloadFixture, _ outcome: Result<DownloadResult, DownloadError>) {
        if case .failure(let error) = outcome { Issue.record("download failed: \(error)") }
        #expect(f.outputSHA256 == f.sha256)
    }

    /// Requests that asked for a closed range (segment requests, not the probe).
    private func segmentRequests(_ requests: [FaultRequest]) -> [FaultRequest] {
        requests.filter { ($0.byteRange?.1) != nil }
    }

    /// A transport without sockets: `respond` scripts each response; its body is delivered in 64 KiB pieces (cut
    /// short as a dropped connection when `closeAfter` says so).
    static func scripted(_ respond: @escaping @Sendable (FaultRequest) -> FaultResponse) -> HTTPTransport {
        HTTPTransport { request, receiver in
            let response = respond(FaultRequest(url: request.url, headers: request.headers))
            let fields = response.headers + [("Content-Type", "application/octet-stream")]
            receiver.head(
                HTTPResponseHead(status: response.status, statusLine: "HTTP/1.1 \(response.status)", fields: fields))
            let body = response.closeAfter.map { Array(response.body.prefix($0)) } ?? response.body
            var offset = 0
            while offset < body.count {
                let end = min(body.count, offset + 64 << 10)
                let going = body[offset..<end].withUnsafeBytes { receiver.body($0) }
                if !going {
                    return HTTPTransferResult(
                        ending: .abortedByReceiver, status: response.status, effectiveURL: request.url,
                        bodyBytes: Int64(offset))
                }
                offset = end
            }
            let ending: HTTPTransferResult.Ending =
                response.closeAfter == nil
                ? .complete
                : .failed(HTTPTransportError(kind: .closedEarly, code: 18, message: "cut", url: request.url))
            return HTTPTransferResult(
                ending: ending, status: response.status, effectiveURL: request.url, bodyBytes: Int64(offset))
        }
    }

    @Test func scriptedTransportSplitsWithIfMatchAndExactRanges() async throws {
        let f = try DownloadFixture(size: Self.size, seed: 11)
        defer { f.remove() }
        let content = f.content
        let seen = Mutex<[FaultRequest]>([])
        let transport = Self.scripted { request in
            seen.withLock { $0.append(request) }
            return FaultResponse.serveRanges(content, to: request)
        }
        let downloader = Downloader(configuration: f.segmentedConfiguration(transport: transport))
        let result = try await downloader.download(f.request(["http://mirror.test/file"], sha256: f.sha256))
        #expect(f.outputSHA256 == f.sha256)
        #expect(result.sha256 == f.sha256)
        let requests = seen.withLock { $0 }
        #expect(requests.first?.header("Range") == nil)  // the plain GET whose head allowed the split
        let segments = segmentRequests(requests)
        #expect(segments.count >= 8)
        for request in segments {
            #expect(request.header("If-Match") == "\"v1\"")
            #expect(request.header("Accept-Encoding") == "identity")
        }
        // The ranges cover the file without a gap (a steal lowers an owner's end after it asked, so asked ranges
        // may overlap; written bytes never do).
        let ranges = segments.compactMap { r in r.byteRange.map { $0.0..<($0.1! + 1) } }.sorted { $0.lowerBound < $1.lowerBound }
        #expect(ranges.first?.lowerBound == 0)
        #expect(ranges.map(\.upperBound).max() == Self.size)
        var covered = 0
        for range in ranges {
            #expect(range.lowerBound <= covered, "gap before \(range)")
            covered = max(covered, range.upperBound)
        }
    }

    @Test func throttledConnectionsRunAtOnce() async throws {
        let f = try DownloadFixture(size: Self.size, seed: 12)
        defer { f.remove() }
        let content = f.content
        let server = try FaultServer { request, _ in
            FaultResponse.serveRanges(content, to: request).throttled(to: 8 << 20)
        }
        defer { server.stop() }
        let outcome = await f.segmentedDownload([server.url()], sha256: f.sha256)
        expectOrigin(f, outcome)
        #expect(segmentRequests(server.requests).count >= 4)
    }

    @Test func aMirrorWithAnotherFileOfTheSameLengthIsExcludedNeverSpliced() async throws {
        let f = try DownloadFixture(size: Self.size, seed: 13)
        defer { f.remove() }
        let content = f.content
        let other = DownloadFixture.randomBytes(Self.size, seed: 99)
        let origin = try FaultServer { request, _ in FaultResponse.serveRanges(content, to: request) }
        defer { origin.stop() }
        let mirror = try FaultServer { request, _ in FaultResponse.serveRanges(other, to: request, etag: "\"m2\"") }
        defer { mirror.stop() }
        let outcome = await f.segmentedDownload([origin.url(), mirror.url()])
        expectOrigin(f, outcome)
        let faults = (try? outcome.get().alternateFaults) ?? []
        #expect(faults.contains { $0.url == mirror.url() && $0.reason == .validatorMismatch }, "\(faults)")
    }

    @Test func aMirrorWithTheSameETagButOtherBytesFailsItsAdmissionWindow() async throws {
        let f = try DownloadFixture(size: Self.size, seed: 22)
        defer { f.remove() }
        let content = f.content
        let other = DownloadFixture.randomBytes(Self.size, seed: 96)
        let origin = try FaultServer { request, _ in FaultResponse.serveRanges(content, to: request).throttled(to: 16 << 20) }
        defer { origin.stop() }
        let mirror = try FaultServer { request, _ in FaultResponse.serveRanges(other, to: request) }  // also "v1"
        defer { mirror.stop() }
        let outcome = await f.segmentedDownload([origin.url(), mirror.url()])
        expectOrigin(f, outcome)
        let faults = (try? outcome.get().alternateFaults) ?? []
        #expect(
            faults.contains { $0.url == mirror.url() && $0.reason == .differentFile && $0.message.contains("differ") },
            "\(faults)")
        // Only the admission window was asked of it: none of its bytes reached the file.
        #expect(mirror.requests.count == 1)
    }

    @Test func aMirrorWithAnotherETagIsAdmittedOnTheFeedsSHA256AndHeldToItsOwnETag() async throws {
        let f = try DownloadFixture(size: Self.size, seed: 23)
        defer { f.remove() }
        let content = f.content
        let mirrorRequests = Mutex<[FaultRequest]>([])
        let admitted = Atomic<Bool>(false)
        // The origin drops every segment transfer after 64 KiB until the mirror was asked without a precondition,
        // so connections keep coming free while the mirror is being admitted (no timing involved).
        let transport = Self.scripted { request in
            if request.path.hasPrefix("http://mirror.test/") {
                mirrorRequests.withLock { $0.append(request) }
                if request.header("If-Match") == nil { admitted.store(true, ordering: .relaxed) }
                return FaultResponse.serveRanges(content, to: request, etag: "\"m2\"")
            }
            let response = FaultResponse.serveRanges(content, to: request)
            let segment = request.byteRange?.1 != nil
            return segment && !admitted.load(ordering: .relaxed) ? response.closing(after: 64 << 10) : response
        }
        let downloader = Downloader(configuration: f.segmentedConfiguration(transport: transport, maxAttempts: 50))
        let result = try await downloader.download(
            f.request(["http://origin.test/file", "http://mirror.test/file"], sha256: f.sha256))
        #expect(f.outputSHA256 == f.sha256)
        #expect(result.alternateFaults.isEmpty, "\(result.alternateFaults)")
        let segments = segmentRequests(mirrorRequests.withLock { $0 })
        #expect(segments.first?.header("If-Match") == "\"v1\"")  // refused with 412: another version
        #expect(segments.contains { $0.header("If-Match") == nil })  // the admission, on the feed's SHA-256
        #expect(
            segments.filter { $0.header("If-Match") == "\"m2\"" }.count >= 1,
            "the admitted mirror took segments under its own ETag: \(segments.map { $0.header("If-Match") ?? "-" })")
    }

    @Test func originChangingMidDownloadRestartsUnderTheNewIdentity() async throws {
        let f = try DownloadFixture(size: Self.size, seed: 14)
        defer { f.remove() }
        let old = DownloadFixture.randomBytes(Self.size, seed: 98)
        let new = f.content
        let server = try FaultServer { request, index in
            index < 4
                ? FaultResponse.serveRanges(old, to: request, etag: "\"old\"")
                : FaultResponse.serveRanges(new, to: request, etag: "\"new\"")
        }
        defer { server.stop() }
        let outcome = await f.segmentedDownload([server.url()])
        expectOrigin(f, outcome)
        #expect(server.requests.contains { $0.header("If-Match") == "\"old\"" })
        #expect(server.requests.contains { $0.header("If-Match") == "\"new\"" })
    }

    @Test func ifMatchIgnoredWithNewBytesUnderANewETagRestarts() async throws {
        let f = try DownloadFixture(size: Self.size, seed: 15)
        defer { f.remove() }
        let old = DownloadFixture.randomBytes(Self.size, seed: 97)
        let new = f.content
        let server = try FaultServer { request, index in
            index < 3
                ? FaultResponse.serveRanges(old, to: request, etag: "\"old\"", honourIfMatch: false)
                : FaultResponse.serveRanges(new, to: request, etag: "\"new\"", honourIfMatch: false)
        }
        defer { server.stop() }
        let outcome = await f.segmentedDownload([server.url()])
        expectOrigin(f, outcome)
    }

    @Test func anOriginThatKeepsChangingEndsInAClearErrorWithNoOutput() async throws {
        let f = try DownloadFixture(size: Self.size, seed: 16)
        defer { f.remove() }
        let content = f.content
        let server = try FaultServer { request, index in
            FaultResponse.serveRanges(content, to: request, etag: "\"v\(index)\"")
        }
        defer { server.stop() }
        let outcome = await f.segmentedDownload([server.url()], maxRestarts: 2)
        guard case .failure(let error) = outcome else {
            Issue.record("expected an error")
            return
        }
        #expect(error.kind == .tooManyRestarts, "\(error)")
        #expect(!f.outputExists)
    }

    @Test(arguments: ["html", "empty", "404", "shorter"])
    func mirrorFaultsAreReportedAndTheOriginFinishes(_ mode: String) async throws {
        let f = try DownloadFixture(size: Self.size, seed: 17)
        defer { f.remove() }
        let content = f.content
        let origin = try FaultServer { request, _ in FaultResponse.serveRanges(content, to: request) }
        defer { origin.stop() }
        let mirror = try FaultServer { request, _ in
            switch mode {
            case "html":
                return FaultResponse(
                    status: 200, headers: [("Content-Type", "text/html"), ("Content-Length", "27")],
                    body: Array("<html>Not Found</html>\r\n\r\n\r".utf8))
            case "empty": return FaultResponse(status: 200, headers: [("Content-Length", "0")])
            case "404": return FaultResponse(status: 404, headers: [("Content-Length", "0")])
            default: return FaultResponse.serveRanges(Array(content.prefix(Self.size - 1)), to: request)
            }
        }
        defer { mirror.stop() }
        let outcome = await f.segmentedDownload([origin.url(), mirror.url()])
        expectOrigin(f, outcome)
        let faults = (try? outcome.get().alternateFaults) ?? []
        let reason: AlternateFault.Reason =
            switch mode {
            case "html": .htmlPage
            case "empty": .emptyBody
            case "404": .httpStatus
            default: .lengthMismatch
            }
        #expect(faults.map(\.url) == [mirror.url()] && faults.first?.reason == reason, "\(faults)")
    }

    @Test func anUnresolvableMirrorIsAFault() async throws {
        let f = try DownloadFixture(size: Self.size, seed: 18)
        defer { f.remove() }
        let content = f.content
        let origin = try FaultServer { request, _ in FaultResponse.serveRanges(content, to: request) }
        defer { origin.stop() }
        let bad = "http://docsync-no-such-host.invalid/file"
        let outcome = await f.segmentedDownload([origin.url(), bad])
        expectOrigin(f, outcome)
        let faults = (try? outcome.get().alternateFaults) ?? []
        #expect(faults.map(\.url) == [bad] && faults.first?.reason == .dns, "\(faults)")
    }

    @Test func aConnectionThatStallsAfterOneMiBIsDroppedAndItsRangeReassigned() async throws {
        let f = try DownloadFixture(size: Self.size, seed: 19)
        defer { f.remove() }
        let content = f.content
        let stalled = Atomic<Bool>(false)
        let server = try FaultServer { request, _ in
            let response = FaultResponse.serveRanges(content, to: request)
            guard request.byteRange?.1 != nil, request.byteRange?.0 != 0,
                stalled.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged
            else { return response }
            return response.stalling(after: 1 << 20, for: 30)
        }
        defer { server.stop() }
        let outcome = await f.segmentedDownload([server.url()], sha256: f.sha256)
        expectOrigin(f, outcome)
    }

    @Test func oneMirrorTenTimesSlowerStillFinishesWithTheOriginsBytes() async throws {
        let f = try DownloadFixture(size: Self.size, seed: 20)
        defer { f.remove() }
        let content = f.content
        let fast = try FaultServer { request, _ in FaultResponse.serveRanges(content, to: request).throttled(to: 16 << 20) }
        defer { fast.stop() }
        let slow = try FaultServer { request, _ in FaultResponse.serveRanges(content, to: request).throttled(to: 1_600_000) }
        defer { slow.stop() }
        let outcome = await f.segmentedDownload([fast.url(), slow.url()], sha256: f.sha256)
        expectOrigin(f, outcome)
    }

    @Test func aConnectionFastEnoughOnItsOwnStaysSingleAndASlowOneSplits() async throws {
        let f = try DownloadFixture(size: Self.size, seed: 24)
        defer { f.remove() }
        let content = f.content
        let fast = try FaultServer { request, _ in FaultResponse.serveRanges(content, to: request) }
        defer { fast.stop() }
        let slow = try FaultServer { request, _ in FaultResponse.serveRanges(content, to: request).throttled(to: 4 << 20) }
        defer { slow.stop() }
        var configuration = f.segmentedConfiguration()
        configuration.segments.singleConnectionAbove = Double(1 << 20)  // loopback without a limit is far faster
        configuration.segments.probeBytes = 1 << 20
        let fastResult = try await Downloader(configuration: configuration).download(f.request([fast.url()]))
        #expect(fastResult.sha256 == f.sha256)
        #expect(segmentRequests(fast.requests).isEmpty, "\(fast.requests.map { $0.header("Range") ?? "-" })")
        try FileManager.default.removeItem(atPath: f.destination)
        configuration.segments.singleConnectionAbove = Double(64 << 20)
        let slowResult = try await Downloader(configuration: configuration).download(
            f.request([slow.url()], key: "docset/slow"))
        #expect(slowResult.sha256 == f.sha256)
        #expect(segmentRequests(slow.requests).count >= 4)
    }

    @Test func aFileTooSmallToSplitTakesTheSingleConnectionPath() async throws {
        let f = try DownloadFixture(size: 3 << 20, seed: 21)
        defer { f.remove() }
        let content = f.content
        let server = try FaultServer { request, _ in FaultResponse.serveRanges(content, to: request) }
        defer { server.stop() }
        let outcome = await f.segmentedDownload([server.url()], sha256: f.sha256)
        expectOrigin(f, outcome)
        #expect(segmentRequests(server.requests).isEmpty)
    }
}
