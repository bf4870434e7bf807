import DocSyncSupport
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A streaming sync with `[install] layout = "tarix"` builds the store while the archive downloads: the store's walk
/// (indexing a flushed archive, or re-encoding a plain one) reads the partial file as it grows, a restarted download
/// starts the install again from byte 0, and nothing is published before the download is verified. The real
/// `docsync` binary against a throttled nginx (or the fault server), watched through its `--json` events and the
/// root's staging folders while it runs.
@Suite(
    .enabled(if: Nginx.isInstalled, "nginx is not installed (scripts/bootstrap installs it)"),
    .timeLimit(.minutes(10)), .blockingWaits)
struct TarixStreamingSyncTests {
    /// The tarix fixture plus `blobs` incompressible 256 KiB documents: an archive that takes seconds at 1 MiB/s.
    static func bulky(_ random: inout TestRandom, blobs: Int) throws -> TarixFixture {
        var fixture = try TarixInstallTests.fixture(&random, count: 60)
        let folder = "\(TarixFixture.documents)/blobs"
        try FileManager.default.createDirectory(atPath: "\(fixture.root)/\(folder)", withIntermediateDirectories: true)
        for i in 0..<blobs {
            var bytes = [UInt8](repeating: 0, count: 256 << 10)
            for j in stride(from: 0, to: bytes.count, by: 8) {
                withUnsafeBytes(of: random.next()) { bytes.replaceSubrange(j..<(j + 8), with: $0) }
            }
            fixture.files["\(folder)/blob\(i).bin"] = bytes
            try Data(bytes).write(to: URL(fileURLWithPath: "\(fixture.root)/\(folder)/blob\(i).bin"))
        }
        return fixture
    }

    /// The fixture archived by GNU tar (`plain`) and rewritten by Zeal's test writer with a full flush before every
    /// record (`flushed`), both under `folder`.
    static func archives(_ fixture: TarixFixture, into folder: String, label: String) throws
        -> (plain: String, flushed: String)
    {
        let plain = "\(folder)/\(label)-plain.tgz"
        try FileManager.default.copyItem(atPath: try fixture.archive(format: "gnu"), toPath: plain)
        let flushed = "\(folder)/\(label)-flushed.tgz"
        _ = try fixture.python(ZealScripts.writer, [plain, flushed, fixture.dir.appending("\(label)-index.db")])
        return (plain, flushed)
    }

    /// An Atom feed with one entry for `url` (and its SHA-256 when given).
    static func feed(_ path: String, version: String, url: String, sha256: String? = nil) throws {
        try ServedFile.write(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:docset="http://developer.apple.com/rss/docset_extensions">
            <id>tag:test,2026:feed</id><title>Test feed</title><updated>2026-11-01T10:00:00Z</updated>
            <entry><id>tag:test,2026:sample/\(version)</id><title>Sample</title>
            <updated>2026-11-01T10:00:00Z</updated><link rel="enclosure" href="\(url)"/>
            <docset:identifier>org.sample</docset:identifier><docset:version>\(version)</docset:version>
            \(sha256.map { "<docset:sha256>\($0)</docset:sha256>" } ?? "")
            </entry>
            </feed>

            """, to: path)
    }

    static func config(_ fixture: TarixFixture, feed: String, extra: String = "") throws -> String {
        let config = fixture.dir.appending("docsync.toml")
        try """
        root = "root"
        staging = "staging"
        state = "state"

        [install]
        layout = "tarix"
        \(extra)
        [[feed]]
        url = "\(feed)"

        """.write(toFile: config, atomically: true, encoding: .utf8)
        return config
    }

    static func size(_ path: String) -> Int64 {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64) ?? 0
    }

    /// The largest `tarix.tgz` being written in the root's staging folders (the one-pass copy, or the re-encode).
    static func stagedStoreBytes(_ fixture: TarixFixture) -> Int64 {
        let staging = fixture.dir.appending("root/.docsync/staging")
        let paths = (try? FileManager.default.subpathsOfDirectory(atPath: staging)) ?? []
        return paths.filter { $0.hasSuffix("/tarix.tgz") }.map { size("\(staging)/\($0)") }.max() ?? 0
    }

    /// True while the download is partial (`<staging>/<name>.part` exists: it is renamed at the verified end).
    static func downloading(_ fixture: TarixFixture) -> Bool {
        let staging = fixture.dir.appending("staging")
        return ((try? FileManager.default.contentsOfDirectory(atPath: staging)) ?? []).contains {
            $0.hasSuffix(".part") && size("\(staging)/\($0)") > 0
        }
    }

    /// Runs `docsync sync --json`, watching the staging folders while it runs: returns the result, its events, and
    /// the store bytes seen staged while the download was still partial (0: never).
    static func watchedSync(_ fixture: TarixFixture, config: String) throws
        -> (result: (status: Int32, standardOutput: String, standardError: String), events: [[String: Any]],
            overlap: Int64)
    {
        let docsync = try DocSyncProcess(["sync", "--json", "--config", config])
        let reader = OutputReader(docsync.output!)
        var overlap: Int64 = 0
        reader.read(timeout: 300, every: .milliseconds(20)) { _ in
            let staged = stagedStoreBytes(fixture)
            // Both checked in this order: the store had bytes while the part file still existed.
            if staged > 0 && downloading(fixture) { overlap = max(overlap, staged) }
            return false  // until the output ends
        }
        let rest = docsync.finish()
        let text = reader.text + rest.standardOutput
        let result = (status: rest.status, standardOutput: text, standardError: rest.standardError)
        let events = text.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        return (result, events, overlap)
    }

    static func versions(_ fixture: TarixFixture) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: fixture.dir.appending("root/.docsync/versions"))) ?? []
    }

    /// Zeal's reader reads every document of the installed store back byte-identical to GNU tar's extraction.
    static func expectZealReadsEverything(_ fixture: TarixFixture, plain: String, _ comment: Comment) throws {
        let store = fixture.dir.appending("root/Sample.docset/Contents/Resources")
        let extracted = try fixture.extract(plain, label: "check-\(UUID().uuidString)")
        let zeal = try fixture.python(ZealScripts.reader, ["\(store)/tarix.tgz", "\(store)/tarixIndex.db", extracted])
        #expect(zeal.trimmingCharacters(in: .whitespacesAndNewlines) == "OK \(fixture.files.count)", comment)
    }

    @Test(arguments: [true, false])
    func theStoreIsBuiltWhileTheArchiveDownloads(flushed: Bool) throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let seed = Comment(rawValue: "seed \(random.seed)")
        // ~6 MB: ~6 s at 1 MiB/s. The re-encode writes its jobs in order with up to ~2 MiB in flight, so the store's
        // first bytes can trail the download by that much: the archive must be well over it.
        let fixture = try Self.bulky(&random, blobs: 24)
        defer { fixture.dir.remove() }
        let www = fixture.dir.appending("www")
        try FileManager.default.createDirectory(atPath: www, withIntermediateDirectories: true)
        let (plain, flushedArchive) = try Self.archives(fixture, into: fixture.dir.path, label: "v1")
        let served = flushed ? flushedArchive : plain
        try FileManager.default.copyItem(atPath: served, toPath: "\(www)/Sample.tgz")
        let nginx = try Nginx(root: www, limitRate: 1 << 20)
        defer { nginx.stop() }
        try Self.feed("\(www)/Sample.atom", version: "1.0", url: nginx.url("Sample.tgz"))
        let config = try Self.config(fixture, feed: nginx.url("Sample.atom"))

        let (result, events, overlap) = try Self.watchedSync(fixture, config: config)
        #expect(result.status == 0, "\(result.standardError) \(seed)")
        // More than the first records (a failed one-pass attempt over a plain archive copies at most a few 64 KiB
        // reads): the walk's copy, or the re-encode's output (written about 1 MiB at a time).
        #expect(
            overlap >= 512 << 10,
            "the store had \(overlap) bytes before the download's end (of \(Self.size(served))) \(seed)")
        let progress = events.filter { $0["event"] as? String == "progress" }
        let firstInstalling = progress.firstIndex { $0["phase"] as? String == "installing" }
        let lastPartialDownload = progress.lastIndex {
            guard $0["phase"] as? String == "downloading", let bytes = $0["bytes"] as? Int else { return false }
            return Int64(bytes) < Self.size(served)
        }
        if let firstInstalling, let lastPartialDownload {
            #expect(firstInstalling < lastPartialDownload, "installing progress before the download's end")
        } else {
            Issue.record("no installing or partial downloading progress: \(progress)")
        }
        let docset = fixture.dir.appending("root/Sample.docset")
        let meta = try TarixInstallTests.meta(docset)
        #expect(meta["tarix_mode"] as? String == (flushed ? "indexed" : "reencoded"), "\(meta)")
        if flushed {
            #expect(
                FileManager.default.contentsEqual(
                    atPath: "\(docset)/Contents/Resources/tarix.tgz", andPath: flushedArchive))
        }
        try Self.expectZealReadsEverything(fixture, plain: plain, seed)
        #expect(Self.versions(fixture).count == 1)
        let staged = (try? FileManager.default.subpathsOfDirectory(atPath: fixture.dir.appending("staging"))) ?? []
        #expect(!staged.contains { $0.hasSuffix(".part") || $0.hasSuffix(".archive") }, "\(staged)")
    }

    /// The first response drops halfway (the store's walk has read v1's first half by then); the retry's
    /// `If-Range` no longer matches, the fault server sends v2 whole, the downloader truncates the partial, and the
    /// install starts again from byte 0 in a fresh version folder: v2 only, never a mix.
    @Test(arguments: [true, false])
    func aRestartedDownloadInstallsTheNewBytesOnly(flushed: Bool) throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let seed = Comment(rawValue: "seed \(random.seed)")
        let v1 = try Self.bulky(&random, blobs: 6)
        defer { v1.dir.remove() }
        let v2 = try Self.bulky(&random, blobs: 6)
        defer { v2.dir.remove() }
        let a1 = try Self.archives(v1, into: v1.dir.path, label: "v1")
        let a2 = try Self.archives(v2, into: v2.dir.path, label: "v2")
        let bytes1 = try [UInt8](Data(contentsOf: URL(fileURLWithPath: flushed ? a1.flushed : a1.plain)))
        let bytes2 = try [UInt8](Data(contentsOf: URL(fileURLWithPath: flushed ? a2.flushed : a2.plain)))
        let server = try FaultServer { request, _ in
            if request.path.hasSuffix(".tarix") { return FaultResponse(status: 404, reason: "Not Found") }
            // The first request (no range) gets v1 and drops halfway; the resumed one's If-Range names v1: v2 whole.
            return request.header("If-Range") == nil && request.rangeStart == nil
                ? FaultResponse.serve(bytes1, to: request, etag: "\"v1\"").throttled(to: 2 << 20)
                    .closing(after: bytes1.count / 2)
                : FaultResponse.serve(bytes2, to: request, etag: "\"v2\"").throttled(to: 2 << 20)
        }
        defer { server.stop() }
        let feedPath = v2.dir.appending("feed.atom")  // a local feed file; the archive over the network
        try Self.feed(feedPath, version: "1.0", url: server.url("Sample.tgz"))
        // One connection: the first response is the whole file, not a segment.
        let config = try Self.config(v2, feed: feedPath, extra: "\n[network]\nconnections = 1\n")

        let (result, _, overlap) = try Self.watchedSync(v2, config: config)
        #expect(result.status == 0, "\(result.standardError) \(seed)")
        if flushed {
            // The one-pass walk copies as it reads (a plain archive's re-encode writes 1 MiB at a time and may still
            // be behind a short download on a loaded machine: the first test measures that overlap).
            #expect(overlap > 0, "the store was being written during the download")
        }
        let archiveRequests = server.requests.filter { $0.path.hasSuffix("Sample.tgz") }
        #expect(archiveRequests.count == 2, "\(server.requests)")
        let docset = v2.dir.appending("root/Sample.docset")
        let meta = try TarixInstallTests.meta(docset)
        #expect(meta["tarix_mode"] as? String == (flushed ? "indexed" : "reencoded"), "\(meta)")
        if flushed {
            let store = "\(docset)/Contents/Resources/tarix.tgz"
            #expect(FileManager.default.contentsEqual(atPath: store, andPath: a2.flushed))
        }
        try Self.expectZealReadsEverything(v2, plain: a2.plain, seed)
        #expect(Self.versions(v2).count == 1, "\(Self.versions(v2))")
        let staging = v2.dir.appending("root/.docsync/staging")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: staging)) ?? []).isEmpty, "no partial version")
    }

    /// v1 installed; v2's feed entry states a SHA-256 its archive does not have. The store's walk reads all of v2
    /// while it downloads, then the download's verification fails: v1 stays, no new version folder, nothing staged.
    @Test(arguments: [true, false])
    func aMismatchedDigestFlipsNothing(flushed: Bool) throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let seed = Comment(rawValue: "seed \(random.seed)")
        let v1 = try Self.bulky(&random, blobs: 1)
        defer { v1.dir.remove() }
        let v2 = try Self.bulky(&random, blobs: 24)  // well over the re-encode's ~2 MiB in flight (above)
        defer { v2.dir.remove() }
        let www = v1.dir.appending("www")
        try FileManager.default.createDirectory(atPath: www, withIntermediateDirectories: true)
        let a1 = try Self.archives(v1, into: v1.dir.path, label: "v1")
        let a2 = try Self.archives(v2, into: v2.dir.path, label: "v2")
        try FileManager.default.copyItem(atPath: flushed ? a1.flushed : a1.plain, toPath: "\(www)/v1.tgz")
        try FileManager.default.copyItem(atPath: flushed ? a2.flushed : a2.plain, toPath: "\(www)/v2.tgz")
        let nginx = try Nginx(root: www, limitRate: 1 << 20)
        defer { nginx.stop() }
        try Self.feed("\(www)/Sample.atom", version: "1.0", url: nginx.url("v1.tgz"))
        let config = try Self.config(v1, feed: nginx.url("Sample.atom"))
        let first = try Tool.run(Tool.docsyncBinary, ["sync", "--config", config])
        #expect(first.status == 0, "\(first.standardError) \(seed)")
        let before = Self.versions(v1)
        let installed = v1.dir.appending("root/Sample.docset/Contents/Resources/tarix.tgz")
        let installedBefore = try Data(contentsOf: URL(fileURLWithPath: installed))

        let wrong = String(repeating: "ab", count: 32)
        try Self.feed("\(www)/Sample.atom", version: "2.0", url: nginx.url("v2.tgz"), sha256: wrong)
        let (result, events, overlap) = try Self.watchedSync(v1, config: config)
        #expect(result.status == 3, "\(result.standardOutput) \(seed)")
        #expect(overlap > 0, "the store was being written during the download: \(result.standardOutput) \(seed)")
        let failed = events.filter { $0["event"] as? String == "failed" }
        #expect(failed.count == 1, "\(events)")
        let reason = "\(failed)".lowercased()
        #expect(reason.contains("sha-256") || reason.contains("sha256") || reason.contains("checksum"), "\(failed)")
        #expect(Self.versions(v1) == before, "no new version folder")
        #expect(try Data(contentsOf: URL(fileURLWithPath: installed)) == installedBefore, "v1 still installed")
        let meta = try TarixInstallTests.meta(v1.dir.appending("root/Sample.docset"))
        #expect(meta["tarix_mode"] as? String == (flushed ? "indexed" : "reencoded"))
        let staging = v1.dir.appending("root/.docsync/staging")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: staging)) ?? []).isEmpty, "nothing staged")
    }
}
