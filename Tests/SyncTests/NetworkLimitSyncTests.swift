import DocSync
import Foundation
import TestSupport
import Testing

/// The archive size cap, the free-space reserve and the plain-http policy: each refusal names its configuration key.
/// Archives that a fault server sends go to the real `docsync sync` (its feed a local file); what needs no socket runs
/// in process against a `MemoryOrigin`; `require_https` against a plain-http server needs a real nginx.
@Suite(
    .enabled(if: Nginx.isInstalled, "nginx is not installed (scripts/bootstrap installs it)"),
    .timeLimit(.minutes(10)), .blockingWaits)
struct NetworkLimitSyncTests {
    static func atomFeed(_ h: SyncHarness, archive: String, length: Int64? = nil, sha256: String? = nil) throws {
        let lengthAttribute = length.map { " length=\"\($0)\"" } ?? ""
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:docset="http://developer.apple.com/rss/docset_extensions">
            <id>tag:test,2026:feed</id><title>T</title><updated>2026-11-01T10:00:00Z</updated>
            <entry><id>tag:test,2026:a/1</id><title>A</title><updated>2026-11-01T10:00:00Z</updated>
            <link rel="enclosure" href="\(archive)"\(lengthAttribute)/>
            <docset:identifier>org.a</docset:identifier><docset:version>1</docset:version>
            \(sha256.map { "<docset:sha256>\($0)</docset:sha256>" } ?? "")
            </entry></feed>

            """
        try xml.write(toFile: "\(h.www)/f.atom", atomically: true, encoding: .utf8)
    }

    @Test func anArchiveWithoutLengthStopsAtMaxArchiveSize() throws {
        let h = try SyncHarness.inMemory()
        let body = DownloadBytes.random(3 << 20, seed: 3)
        let server = try FaultServer { _, _ in
            var response = FaultResponse(status: 200, headers: [("Transfer-Encoding", "chunked")], body: body)
            response.chunked = true
            return response
        }
        defer { server.stop() }
        try Self.atomFeed(h, archive: server.url("A.tgz"))
        try h.writeConfig(feeds: ["\(h.www)/f.atom"], extra: "[install]\nmax_archive_size = \"1M\"\nstreaming = false")
        let run = try BoundedRun.run(h, ["sync", "--json"], deadline: 120)
        #expect(run.status == 3, "\(run.standardError)")
        let reason = run.reason("failed") ?? ""
        #expect(reason.contains("max_archive_size") && reason.contains("\(1 << 20)"), "\(run.standardOutput)")
        let staged = (try? FileManager.default.subpathsOfDirectory(atPath: h.dir.appending("staging"))) ?? []
        let bytes = staged.reduce(0) { total, path in
            total
                + ((try? FileManager.default.attributesOfItem(atPath: h.dir.appending("staging/\(path)"))[.size]
                    as? Int) ?? 0)
        }
        #expect(bytes <= 1 << 20 + 4096, "nothing past the cap stays on disk: \(bytes) bytes in \(staged)")
    }

    @Test func aFeedLengthAboveMaxArchiveSizeIsRefusedBeforeDownloading() throws {
        let h = try SyncHarness.inMemory()
        let server = try FaultServer { _, _ in FaultResponse(status: 500) }
        defer { server.stop() }
        try Self.atomFeed(h, archive: server.url("A.tgz"), length: 5 << 30)
        try h.writeConfig(feeds: ["\(h.www)/f.atom"])
        let run = try BoundedRun.run(h, ["sync", "--json"], deadline: 60)
        #expect(run.reason("failed")?.contains("[install] max_archive_size") == true, "\(run.standardOutput)")
        #expect(server.requests.isEmpty)
    }

    @Test func minFreeSpaceRefusesAndNamesTheKey() async throws {
        let h = try SyncHarness.inMemory()
        try h.publishArchive(try DocsetFixture.make(version: "1"), as: "A.tgz", folder: "A")
        try Self.atomFeed(h, archive: "A.tgz")
        try h.writeConfig(feeds: ["f.atom"], extra: "[install]\nmin_free_space = \"1000000G\"")
        let run = try await h.sync()
        #expect(run.reason("failed")?.contains("[install] min_free_space") == true, "\(run.lines)")
        #expect(!FileManager.default.fileExists(atPath: "\(h.root)/A.docset"))
    }

    @Test func aPlainHTTPInstallWithoutChecksumIsAWarning() async throws {
        let h = try SyncHarness.inMemory()
        try h.publishArchive(try DocsetFixture.make(version: "1"), as: "A.tgz", folder: "A")
        try Self.atomFeed(h, archive: "A.tgz")
        try h.writeConfig(feeds: ["f.atom"])
        let run = try await h.sync()
        #expect(run.status == 0, "\(run.lines)")
        let warning = run.first("warning")
        #expect(warning?["name"] as? String == "A", "\(run.lines)")
        #expect((warning?["message"] as? String)?.contains("require_https") == true)
        #expect(h.installedManifest("A") != nil, "installed all the same")
    }

    @Test func aPlainHTTPInstallWithAChecksumIsNoWarning() async throws {
        let h = try SyncHarness.inMemory()
        let sha = try h.publishArchive(try DocsetFixture.make(version: "1"), as: "A.tgz", folder: "A")
        try Self.atomFeed(h, archive: "A.tgz", sha256: sha)
        try h.writeConfig(feeds: ["f.atom"])
        let run = try await h.sync()
        #expect(run.status == 0, "\(run.lines)")
        #expect(run.first("warning") == nil, "\(run.lines)")
    }

    /// `require_https`: the archive's https attempt fails (nginx speaks plain http) and plain http is never tried.
    @Test func requireHTTPSRefusesAPlainHTTPArchive() throws {
        let h = try SyncHarness()
        try h.publishArchive(try DocsetFixture.make(version: "1"), as: "A.tgz", folder: "A")
        try Self.atomFeed(h, archive: h.nginx.url("A.tgz"))
        let toml = """
            root = "root"
            staging = "staging"
            state = "state"
            [network]
            require_https = true
            retries = 1
            [[feed]]
            url = "\(h.www)/f.atom"
            """
        try toml.write(toFile: h.configPath, atomically: true, encoding: .utf8)
        let run = try BoundedRun.run(h, ["sync", "--json"], deadline: 120)
        #expect(run.status == 3, "\(run.standardOutput) \(run.standardError)")
        #expect(run.reason("failed")?.contains("require_https") == true, "\(run.standardOutput)")
        #expect(h.nginx.accessLog().allSatisfy { $0.status != 200 }, "\(h.nginx.accessLog())")
    }

    @Test func requireHTTPSRejectsAPlainHTTPFeedInTheConfiguration() throws {
        let h = try SyncHarness.inMemory()  // refused while the configuration loads: no server is asked
        try h.writeConfig(feeds: ["f.atom"], extra: "[network]\nrequire_https = true")
        let run = try BoundedRun.run(h, ["sync"], deadline: 60)
        #expect(run.status == 78, "\(run.standardError)")
        #expect(run.standardError.contains("feed[1].url") && run.standardError.contains("require_https"))
    }
}
