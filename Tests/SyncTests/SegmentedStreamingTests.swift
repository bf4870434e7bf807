import DocSync
import Foundation
import TestSupport
import Testing

/// Streaming install over a segmented download: 4 connections, extraction reads only the contiguous
/// durable prefix and progresses while the download runs; the installed tree equals the archive.
@Suite(
    .enabled(if: Nginx.isInstalled, "nginx is not installed (scripts/bootstrap installs it)"),
    .timeLimit(.minutes(10)), .blockingWaits)
struct SegmentedStreamingTests {
    /// About 34 MiB of tgz: above twice the 16 MiB minimum segment, so the download splits.
    static func largeFixture() throws -> DocsetFixture {
        var fixture = try DocsetFixture.make(version: "1.0", documents: 50, bytesPerDocument: 2_000)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for i in 0..<136 {
            var bytes = [UInt8](repeating: 0, count: 256 << 10)
            bytes.withUnsafeMutableBytes { raw in
                for w in raw.bindMemory(to: UInt64.self).indices {
                    state ^= state >> 12
                    state ^= state << 25
                    state ^= state >> 27
                    raw.storeBytes(of: state &* 0x2545_F491_4F6C_DD1D, toByteOffset: w * 8, as: UInt64.self)
                }
            }
            fixture.files["Contents/Resources/Documents/blob\(i).bin"] = (bytes, 0o644)
        }
        return fixture
    }

    @Test func extractionProgressesDuringAFourConnectionDownload() throws {
        let h = try SyncHarness(limitRate: 3 << 20)
        let fixture = try Self.largeFixture()
        let sha = try h.publishArchive(fixture, as: "Big.tgz", folder: "Big")
        try h.writeAtomFeed(
            "f.atom", [.init(identifier: "org.big", title: "Big", version: "1.0", archive: "Big.tgz", sha256: sha)])
        try h.writeConfig(feeds: ["f.atom"], extra: "[network]\nper_host = 4\nconnections = 4\n")

        let result = try h.run(["sync", "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(h.installedManifest("Big") == fixture.expectedManifest)
        let ranges = h.nginx.accessLog().map(\.range).filter { $0.hasPrefix("bytes=") && !$0.hasSuffix("-") }
        #expect(ranges.count >= 3, "the archive was fetched in segments (16 MiB ones): \(ranges)")
        let size = (try? FileManager.default.attributesOfItem(atPath: "\(h.www)/Big.tgz")[.size] as? Int) ?? 0
        let progress = SyncHarness.events(result).filter { $0["event"] as? String == "progress" }
        let firstExtraction = progress.firstIndex { $0["phase"] as? String == "installing" }
        let lastPartialDownload = progress.lastIndex {
            guard $0["phase"] as? String == "downloading", let bytes = $0["bytes"] as? Int else { return false }
            return bytes < size
        }
        #expect(firstExtraction != nil, "installing progress is reported")
        if let firstExtraction, let lastPartialDownload {
            #expect(firstExtraction < lastPartialDownload, "extraction started before the download ended")
        }
    }
}
