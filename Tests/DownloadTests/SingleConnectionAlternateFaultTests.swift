import DocSyncDownload
import DocSyncHTTP
import Foundation
import TestSupport
import Testing

/// A download on one connection that leaves a mirror for the next reports it like a segmented download's
/// exclusion: (every mirror fault is a line in the report), in its result or in its error.
@Suite(.timeLimit(.minutes(10))) struct SingleConnectionAlternateFaultTests {
    struct Row: Sendable, CustomStringConvertible {
        var kind: DownloadError.Kind
        var status: Int
        var fields: [(String, String)]
        var reason: String
        var description: String { "\(kind) \(status) \(fields) → \(reason)" }
    }

    @Test(arguments: [
        Row(kind: .http, status: 404, fields: [], reason: "http_status"),
        Row(kind: .http, status: 200, fields: [("Content-Type", "text/html; charset=utf-8")], reason: "html_page"),
        Row(kind: .http, status: 200, fields: [("Content-Length", "0")], reason: "empty_body"),
        Row(kind: .http, status: 200, fields: [("Content-Length", "12")], reason: "bad_response"),
        Row(kind: .badResponse, status: 206, fields: [], reason: "bad_response"),
        Row(kind: .verification, status: 200, fields: [], reason: "verification"),
    ])
    func reasonOfALeftMirror(_ row: Row) {
        let head = HTTPResponseHead(status: row.status, statusLine: "HTTP/1.1 \(row.status) X", fields: row.fields)
        let error = DownloadError(row.kind, status: row.status, reason: "r", isTransient: false)
        #expect(AlternateFault.Reason(leaving: error, head: head).description == row.reason)
    }

    @Test func aTransportFailureKeepsItsKind() {
        var error = DownloadError(.transport, reason: "r", isTransient: false)
        error.transportKind = .resolve
        #expect(AlternateFault.Reason(leaving: error, head: nil) == .dns)
    }

    @Test func mirrorsLeftOnTheWayAreInTheResult() async throws {
        let f = try DownloadFixture(size: 1 << 20, seed: 51)
        defer { f.remove() }
        let content = f.content
        let missing = try FaultServer { _, _ in FaultResponse(status: 404, headers: [("Content-Length", "0")]) }
        defer { missing.stop() }
        let page = Array("<html>login</html>".utf8)
        let portal = try FaultServer { _, _ in
            FaultResponse(
                status: 200, headers: [("Content-Type", "text/html"), ("Content-Length", "\(page.count)")], body: page)
        }
        defer { portal.stop() }
        let origin = try FaultServer { request, _ in FaultResponse.serveRanges(content, to: request) }
        defer { origin.stop() }
        var configuration = f.configuration()
        configuration.rejectsPages = true  // as sync downloads archives
        let result = try await Downloader(configuration: configuration).download(
            f.request([missing.url(), portal.url(), origin.url()], sha256: f.sha256))
        #expect(f.outputSHA256 == f.sha256)
        #expect(result.alternateFaults.map(\.url) == [missing.url(), portal.url()], "\(result.alternateFaults)")
        #expect(result.alternateFaults.map(\.reason) == [.httpStatus, .htmlPage], "\(result.alternateFaults)")
        #expect(result.alternateFaults.allSatisfy { !$0.message.contains("127.0.0.1") }, "the URL is said once: \(result)")
    }

    @Test func aFailedDownloadCarriesTheMirrorsItLeft() async throws {
        let f = try DownloadFixture(size: 1 << 20, seed: 52)
        defer { f.remove() }
        let gone = try FaultServer { _, _ in FaultResponse(status: 410, headers: [("Content-Length", "0")]) }
        defer { gone.stop() }
        let missing = try FaultServer { _, _ in FaultResponse(status: 404, headers: [("Content-Length", "0")]) }
        defer { missing.stop() }
        do {
            _ = try await f.download([gone.url(), missing.url()])
            Issue.record("two missing mirrors cannot finish")
        } catch {
            #expect(error.kind == .http && error.status == 404, "\(error)")
            #expect(error.alternateFaults.map(\.url) == [gone.url()], "the last mirror is the error itself: \(error)")
            #expect(error.alternateFaults.first?.reason == .httpStatus)
        }
        #expect(!f.outputExists)
    }
}
