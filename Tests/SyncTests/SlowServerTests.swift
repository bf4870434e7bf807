import DocSync
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Servers that never quite stall: bytes keep coming, too slowly. Each run must end in bounded time with an error
/// naming the configuration key, and release the sync lock.
@Suite(
    .enabled(if: Nginx.isInstalled, "nginx is not installed (scripts/bootstrap installs it)"),
    .timeLimit(.minutes(10)), .blockingWaits)
struct SlowServerTests {
    /// A sync whose feed or archive trickles must end well before the trickling server would give up (60 s).
    static let bound = 45.0

    /// Random bytes are no archive: download first (no streaming extraction to fail early), three attempts.
    static func archiveConfig(stall: String) -> String {
        "[network]\nstall_timeout = \"\(stall)\"\nretries = 3\n[install]\nstreaming = false"
    }

    static func feedXML(archive: String) -> [UInt8] {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:docset="http://developer.apple.com/rss/docset_extensions">
            <id>tag:test,2026:feed</id><title>Slow</title><updated>2026-11-01T10:00:00Z</updated>
            <entry><id>tag:test,2026:slow/1</id><title>Slow</title><updated>2026-11-01T10:00:00Z</updated>
            <link rel="enclosure" href="\(archive)"/>
            <docset:identifier>org.slow</docset:identifier><docset:version>1</docset:version></entry>
            </feed>

            """
        return Array(xml.utf8) + Array(repeating: UInt8(ascii: " "), count: 200_000)
    }

    @Test func aFeedTricklingBelowTheMinimumSpeedIsAStall() throws {
        let h = try SyncHarness()
        let body = Self.feedXML(archive: "A.tgz")
        let server = try FaultServer { _, _ in
            FaultResponse(status: 200, headers: [("Content-Length", "\(body.count)")], body: body)
                .trickling(16, for: 60)  // bytes keep coming: libcurl's old floor of 1 byte/s never fired
        }
        defer { server.stop() }
        try h.writeConfig(feeds: [server.url("f.atom")], extra: "[network]\nstall_timeout = \"2s\"")
        let run = try BoundedRun.run(h, ["sync", "--json"], deadline: 120)
        #expect(!run.killed && run.seconds < Self.bound, "ended after \(run.seconds) s")
        let reason = run.reason("feed-failed") ?? ""
        #expect(reason.contains("min_speed") && reason.contains("stall_timeout"), "\(run.standardOutput)")
    }

    @Test func aFeedFasterThanTheMinimumSpeedStillEndsAtFeedTimeout() throws {
        let h = try SyncHarness()
        let body = Self.feedXML(archive: "A.tgz")
        let server = try FaultServer { _, _ in
            FaultResponse(status: 200, headers: [("Content-Length", "\(body.count)")], body: body)
                .trickling(2048, for: 60)  // above min_speed (1 KiB/s): never a stall; 200 KB take ~100 s
        }
        defer { server.stop() }
        try h.writeConfig(
            feeds: [server.url("f.atom")], extra: "[network]\nstall_timeout = \"2s\"\nfeed_timeout = \"3s\"")
        let run = try BoundedRun.run(h, ["sync", "--json"], deadline: 120)
        #expect(!run.killed && run.seconds < Self.bound, "ended after \(run.seconds) s")
        let reason = run.reason("feed-failed") ?? ""
        #expect(reason.contains("feed_timeout"), "\(run.standardOutput)")
    }

    /// The archive trickles at 16 bytes/s on every attempt: each attempt is a stall and the sync fails after the
    /// retries (with libcurl's old floor of 1 byte/s, one attempt lasted as long as the server kept trickling; and
    /// the few bytes of each attempt, committed and then replaced by the next 200, reset the retry count).
    @Test func anArchiveTricklingBelowTheMinimumSpeedFailsAfterTheRetries() throws {
        let h = try SyncHarness()
        let archive = DownloadBytes.random(64 << 10, seed: 7)
        let server = try FaultServer { request, _ in
            FaultResponse.serve(archive, to: request).trickling(16, for: 60)
        }
        defer { server.stop() }
        try h.writeAtomFeed(
            "f.atom", [.init(identifier: "org.slow", title: "Slow", version: "1", archive: server.url("A.tgz"))])
        try h.writeConfig(feeds: ["f.atom"], extra: Self.archiveConfig(stall: "2s"))
        let run = try BoundedRun.run(h, ["sync", "--json"], deadline: 150)
        #expect(!run.killed && run.seconds < Self.bound * 2, "ended after \(run.seconds) s")
        let reason = run.reason("failed") ?? ""
        #expect(reason.contains("stall") && reason.contains("min_speed"), "\(run.standardOutput)")
        #expect(server.requests.count == 3, "one request per attempt: \(server.requests.count)")
    }
}

/// Deterministic bytes for archives that are never extracted.
enum DownloadBytes {
    static func random(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        return (0..<count).map { _ in
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return UInt8(truncatingIfNeeded: (state &* 0x2545_F491_4F6C_DD1D) >> 56)
        }
    }
}
