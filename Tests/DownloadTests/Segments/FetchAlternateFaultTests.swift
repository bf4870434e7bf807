import Foundation
import TestSupport
import Testing

/// `docsync fetch` reports every mirror it excluded ("a clear line in the report"): one line each on
/// standard error with the reason code, and `mirror_faults` in `--json`, credentials redacted.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct FetchAlternateFaultTests {
    /// Above twice the CLI's 16 MiB minimum segment, served at 24 MB/s per connection: the first connection is
    /// slower than the 64 MiB/s at which one connection is deemed enough, so the download splits and the mirrors
    /// are asked to prove themselves.
    static let size = 34 << 20

    @Test func anHTMLSoftNotFoundMirrorIsReportedWithItsReasonAndTheOriginFinishes() throws {
        let f = try DownloadFixture(size: Self.size, seed: 41)
        defer { f.remove() }
        let content = f.content
        let origin = try FaultServer { request, _ in
            FaultResponse.serveRanges(content, to: request).throttled(to: 24 << 20)
        }
        defer { origin.stop() }
        let page = Array("<html><body>Not Found</body></html>\n".utf8)
        let soft = try FaultServer { _, _ in
            FaultResponse(
                status: 200, headers: [("Content-Type", "text/html"), ("Content-Length", "\(page.count)")], body: page)
        }
        defer { soft.stop() }
        let empty = try FaultServer { _, _ in FaultResponse(status: 200, headers: [("Content-Length", "0")]) }
        defer { empty.stop() }
        let softURL = soft.url().replacingOccurrences(of: "http://", with: "http://user:hunter2@")
        let run = try DocSyncProcess.fetch([
            origin.url(), "--mirror", softURL, "--mirror", empty.url(), "--output", f.destination, "--json",
            "--sha256", f.sha256,
        ])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(f.outputSHA256 == f.sha256)
        #expect(!run.standardOutput.contains("hunter2") && !run.standardError.contains("hunter2"), "credentials are never printed")

        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any], "\(run.standardOutput)")
        let faults = try #require(object["mirror_faults"] as? [[String: Any]], "\(object)")
        let byReason = Dictionary(
            faults.map { ($0["reason"] as? String ?? "", $0) }, uniquingKeysWith: { first, _ in first })
        #expect(Set(byReason.keys) == ["html_page", "empty_body"], "\(faults)")
        #expect((byReason["html_page"]?["url"] as? String)?.hasSuffix(soft.url().dropFirst("http://".count)) == true)
        #expect((byReason["html_page"]?["message"] as? String)?.contains("HTML") == true, "\(faults)")
        #expect(byReason["empty_body"]?["url"] as? String == empty.url())

        let lines = run.standardError.split(separator: "\n").filter { $0.contains("mirror excluded") }
        #expect(lines.count == 2, "\(run.standardError)")
        #expect(lines.contains { $0.contains(empty.url()) && $0.hasSuffix("(empty_body)") }, "\(run.standardError)")
        #expect(lines.contains { $0.hasSuffix("(html_page)") }, "\(run.standardError)")
    }

    @Test func aCleanFetchHasAnEmptyMirrorFaultsArray() throws {
        let f = try DownloadFixture(size: 1 << 20, seed: 42)
        defer { f.remove() }
        let content = f.content
        let origin = try FaultServer { request, _ in FaultResponse.serveRanges(content, to: request) }
        defer { origin.stop() }
        let run = try DocSyncProcess.fetch([origin.url(), "--output", f.destination, "--json"])
        #expect(run.status == 0, "\(run.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        #expect((object["mirror_faults"] as? [Any])?.isEmpty == true, "\(run.standardOutput)")
        #expect(!run.standardError.contains("mirror excluded"))
    }
}
