import DocSync
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Streaming install (the default): extraction reads the partial file while it downloads; the swap happens only at
/// the verified end.
@Suite(
    .enabled(if: Nginx.isInstalled, "nginx is not installed (scripts/bootstrap installs it)"),
    .timeLimit(.minutes(10)), .blockingWaits)
struct StreamingSyncTests {
    /// A docset whose tgz does not compress away: 300 small pages plus `blobs` incompressible 256 KiB files.
    static func bulkyFixture(version: String, blobs: Int = 8) throws -> DocsetFixture {
        var fixture = try DocsetFixture.make(version: version, documents: 300, bytesPerDocument: 4_000)
        var generator = TestRandom(label: "bulky \(version)")
        for i in 0..<blobs {
            let bytes = (0..<(256 << 10)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            fixture.files["Contents/Resources/Documents/blob\(i).bin"] = (bytes, 0o644)
        }
        return fixture
    }

    static func feed(_ h: SyncHarness, version: String, archive: String) throws {
        try h.writeAtomFeed(
            "f.atom", [.init(identifier: "org.big", title: "Big", version: version, archive: archive)])
    }

    static func size(_ path: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }

    @Test func extractionProgressesWhileTheArchiveDownloads() throws {
        let h = try SyncHarness(limitRate: 1 << 20)
        let fixture = try Self.bulkyFixture(version: "1.0")
        try h.publishArchive(fixture, as: "Big.tgz", folder: "Big")
        try Self.feed(h, version: "1.0", archive: "Big.tgz")
        try h.writeConfig(feeds: ["f.atom"])

        let result = try h.run(["sync", "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(h.installedManifest("Big") == fixture.expectedManifest)
        let progress = SyncHarness.events(result).filter { $0["event"] as? String == "progress" }
        let firstExtraction = progress.firstIndex { $0["phase"] as? String == "installing" }
        let lastPartialDownload = progress.lastIndex {
            guard $0["phase"] as? String == "downloading", let bytes = $0["bytes"] as? Int else { return false }
            return bytes < Self.size("\(h.www)/Big.tgz")
        }
        #expect(firstExtraction != nil, "installing progress is reported")
        #expect(lastPartialDownload != nil, "downloading progress is reported")
        if let firstExtraction, let lastPartialDownload {
            #expect(firstExtraction < lastPartialDownload, "extraction started before the download ended")
        }
    }

    @Test func noStreamingDownloadsFirstThenInstalls() throws {
        let h = try SyncHarness()
        let fixture = try DocsetFixture.make(version: "1.0")
        try h.publishArchive(fixture, as: "Big.tgz", folder: "Big")
        try Self.feed(h, version: "1.0", archive: "Big.tgz")
        try h.writeConfig(feeds: ["f.atom"])
        let result = try h.run(["sync", "--json", "--no-streaming"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(h.installedManifest("Big") == fixture.expectedManifest)
        let phases = SyncHarness.events(result).compactMap { $0["phase"] as? String }
        #expect(!phases.contains("installing"))
    }

    /// The first response drops halfway (extraction has read v1's first half by then); the retry's `If-Range` no
    /// longer matches, the server sends v2 whole, the downloader truncates the partial and extraction restarts.
    @Test func anArchiveChangedMidDownloadInstallsTheNewVersionOnly() throws {
        let h = try SyncHarness()
        let v1 = try Self.bulkyFixture(version: "1.0", blobs: 4)
        let v2 = try Self.bulkyFixture(version: "2.0", blobs: 4)
        try h.publishArchive(v1, as: "v1.tgz", folder: "Big")
        try h.publishArchive(v2, as: "v2.tgz", folder: "Big")
        let bytes1 = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(h.www)/v1.tgz")))
        let bytes2 = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(h.www)/v2.tgz")))
        let server = try FaultServer { request, index in
            index == 0
                ? FaultResponse.serve(bytes1, to: request, etag: "\"v1\"").closing(after: bytes1.count / 2)
                : FaultResponse.serve(bytes2, to: request, etag: "\"v2\"")
        }
        defer { server.stop() }
        try Self.feed(h, version: "1.0", archive: server.url("Big.tgz"))
        try h.writeConfig(feeds: ["f.atom"])

        let result = try h.run(["sync", "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(h.installedManifest("Big") == v2.expectedManifest, "the new bytes only, never a mix")
        #expect(server.requests.count == 2)
        let versions = try FileManager.default.contentsOfDirectory(atPath: "\(h.root)/.docsync/versions")
        #expect(versions.count == 1, "\(versions)")
    }

    /// v2's archive starts as a valid gzip stream and ends in garbage: v1 stays, and nothing new is visible.
    @Test func aCorruptTailLeavesTheOldVersionInstalled() throws {
        let h = try SyncHarness(limitRate: 4 << 20)
        let v1 = try DocsetFixture.make(version: "1.0")
        try h.publishArchive(v1, as: "v1.tgz", folder: "Big")
        try Self.feed(h, version: "1.0", archive: "v1.tgz")
        try h.writeConfig(feeds: ["f.atom"])
        #expect(try h.run(["sync"]).status == 0)
        let before = try FileManager.default.contentsOfDirectory(atPath: "\(h.root)/.docsync/versions")

        try h.publishArchive(try Self.bulkyFixture(version: "2.0", blobs: 4), as: "v2.tgz", folder: "Big")
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(h.www)/v2.tgz")))
        var generator = TestRandom(seed: 75)
        for i in (bytes.count * 3 / 4)..<bytes.count { bytes[i] = UInt8.random(in: 0...255, using: &generator) }
        try Data(bytes).write(to: URL(fileURLWithPath: "\(h.www)/v2.tgz"))
        try Self.feed(h, version: "2.0", archive: "v2.tgz")

        let result = try h.run(["sync", "--json"])
        #expect(result.status == 3, "\(result.standardOutput)")
        #expect(SyncHarness.names(SyncHarness.events(result), "failed") == ["Big"])
        #expect(h.installedManifest("Big") == v1.expectedManifest)
        let visible = try FileManager.default.contentsOfDirectory(atPath: h.root).filter { !$0.hasPrefix(".") }
        #expect(visible == ["Big.docset"])
        let after = try FileManager.default.contentsOfDirectory(atPath: "\(h.root)/.docsync/versions")
        #expect(after == before, "no new version folder")
    }

    /// SIGKILL at random moments while download and extraction overlap: the root holds nothing or one complete
    /// version, and the next sync (resuming the download, extracting from byte 0) completes.
    @Test func sigkillDuringAStreamingSyncThenTheNextSyncCompletes() throws {
        let h = try SyncHarness(limitRate: 1 << 20)
        let fixture = try Self.bulkyFixture(version: "1.0", blobs: 20)  // ~5 MB: most kills land mid-transfer
        try h.publishArchive(fixture, as: "Big.tgz", folder: "Big")
        try Self.feed(h, version: "1.0", archive: "Big.tgz")
        try h.writeConfig(feeds: ["f.atom"])
        var generator = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let seed = "seed \(generator.seed) (DOCSYNC_TEST_SEED=\(generator.seed) replays the kill moments)"
        for trial in 0..<10 {
            let (process, _, _) = try SyncHarness.start(h, ["sync"])
            usleep(UInt32.random(in: 100_000...1_200_000, using: &generator))  // the kill moment, not a wait
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            h.expectCompleteOrAbsent("Big", allowed: [fixture.expectedManifest], "trial \(trial), \(seed)")
        }
        let final = try h.run(["sync", "--json"])
        #expect(final.status == 0, "\(final.standardError)")
        #expect(h.installedManifest("Big") == fixture.expectedManifest)
    }

    /// The streaming install builds the text index too: once the streaming sync is done, `search --text` finds a
    /// word only one page holds (a page cut from the archive as it downloaded, its text indexed after the flip).
    @Test func aStreamingInstallBuildsTheTextIndex() throws {
        let h = try SyncHarness(limitRate: 1 << 20)
        var fixture = try Self.bulkyFixture(version: "1.0", blobs: 4)
        fixture.files["Contents/Resources/Documents/guide/streams.html"] = (
            Array("<html><head><title>Streams</title></head><body><p>A quokkastream arrives.</p></body></html>".utf8),
            0o644
        )
        try h.publishArchive(fixture, as: "Big.tgz", folder: "Big")
        try Self.feed(h, version: "1.0", archive: "Big.tgz")
        try h.writeConfig(feeds: ["f.atom"])
        let result = try h.run(["sync", "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let phases = SyncHarness.events(result).compactMap { $0["phase"] as? String }
        #expect(phases.contains("installing"), "the install streamed (extraction progress while downloading)")
        let search = try h.run(["search", "--text", "quokkastream", "--json"])
        #expect(search.status == 0, "\(search.standardError)")
        let pages = search.standardOutput.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["page"] as? String
        }
        #expect(pages == ["guide/streams.html"], "\(search.standardOutput)")
    }
}
