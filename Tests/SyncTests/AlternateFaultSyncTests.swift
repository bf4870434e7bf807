import DocSync
import Foundation
import TestSupport
import Testing

/// A sync reports each mirror a segmented download excluded as a `mirror-fault` event, and the docset is
/// installed from the good mirror.
@Suite(
    .enabled(if: Nginx.isInstalled, "nginx is not installed (scripts/bootstrap installs it)"),
    .timeLimit(.minutes(10)), .blockingWaits)
struct AlternateFaultSyncTests {
    @Test func aSoftNotFoundMirrorIsAMirrorFaultEventAndTheDocsetInstalls() throws {
        let h = try SyncHarness(limitRate: 8 << 20)  // per connection: slow enough that the download splits
        let fixture = try SegmentedStreamingTests.largeFixture()
        try h.publishArchive(fixture, as: "Big.tgz", folder: "Big")
        let page = Array("<html><body>Not Found</body></html>\n".utf8)
        let soft = try FaultServer { _, _ in
            FaultResponse(
                status: 200, headers: [("Content-Type", "text/html"), ("Content-Length", "\(page.count)")], body: page)
        }
        defer { soft.stop() }
        try h.writeDashFeed("Big.xml", version: "1.0", alternates: [h.nginx.url("Big.tgz"), soft.url("Big.tgz")])
        try h.writeConfig(feeds: ["Big.xml"], extra: "[network]\nper_host = 4\nconnections = 4\n")

        let result = try h.run(["sync", "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(h.installedManifest("Big") == fixture.expectedManifest)
        let events = SyncHarness.events(result)
        let faults = events.filter { $0["event"] as? String == "mirror-fault" }
        #expect(faults.count == 1, "\(result.standardOutput)")
        #expect(faults.first?["name"] as? String == "Big")
        #expect(faults.first?["url"] as? String == soft.url("Big.tgz"))
        #expect(faults.first?["reason"] as? String == "html_page")
        #expect((faults.first?["message"] as? String)?.contains("HTML") == true)
        let decoded = try result.standardOutput.split(separator: "\n").map {
            try DocSyncJSON.decoder().decode(SyncEvent.self, from: Data($0.utf8))
        }
        #expect(decoded.contains { if case .alternateFault(name: "Big", _, "html_page", _) = $0 { true } else { false } })
    }

    /// A soft 404 with a wrong type: an HTML page served as `application/x-gzip` is sniffed and left for the next
    /// mirror (first), never installed as an "unreadable archive".
    @Test func anHTMLPageBehindAnArchiveTypeIsAMirrorFault() throws {
        let h = try SyncHarness()
        let fixture = try DocsetFixture.make(version: "1.0", documents: 3)
        try h.publishArchive(fixture, as: "Go.tgz", folder: "Go")
        let page = Array("\u{FEFF}\n  <!DOCTYPE html><html><body>Not Found</body></html>\n".utf8)
        let soft = try FaultServer { _, _ in
            FaultResponse(
                status: 200, headers: [("Content-Type", "application/x-gzip"), ("Content-Length", "\(page.count)")],
                body: page)
        }
        defer { soft.stop() }
        try h.writeDashFeed("Go.xml", version: "1.0", alternates: [soft.url("Go.tgz"), h.nginx.url("Go.tgz")])
        try h.writeConfig(feeds: ["Go.xml"])

        let result = try h.run(["sync", "--json"])
        #expect(result.status == 0, "\(result.standardError)\(result.standardOutput)")
        #expect(h.installedManifest("Go") == fixture.expectedManifest)
        let faults = SyncHarness.events(result).filter { $0["event"] as? String == "mirror-fault" }
        #expect(faults.count == 1 && faults.first?["reason"] as? String == "html_page", "\(result.standardOutput)")
        #expect(faults.first?["url"] as? String == soft.url("Go.tgz"))
    }
}
