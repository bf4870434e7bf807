import DocSync
import DocSyncDownload
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A real full disk (ENOSPC from an 8 MiB tmpfs) during a download and during an extraction: the sync fails with
/// an error naming the path and "No space left on device", the installed version stays as it was, and a
/// download's durable partial is kept for the next run. Mounting needs root: as another user these tests are
/// skipped, and say so on standard output.
@Suite(
    .enabled(if: Nginx.isInstalled, "nginx is not installed (scripts/bootstrap installs it)"),
    .serialized, .timeLimit(.minutes(10)), .blockingWaits)
struct DiskFullTests {
    static let mib = 1 << 20

    /// A docset whose archive does not compress: `megabytes` of random bytes (seeded).
    static func incompressible(version: String, megabytes: Int) -> DocsetFixture {
        var fixture = (try? DocsetFixture.make(version: version))!
        var generator = TestRandom(seed: 42)
        fixture.files["Contents/Resources/Documents/blob.bin"] = (
            (0..<(megabytes * mib)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }, 0o644
        )
        return fixture
    }

    static func failure(_ result: Tool.Result) -> String {
        let failed = SyncHarness.events(result).first { $0["event"] as? String == "failed" }
        return (failed?["failure"] as? [String: Any])?["message"] as? String ?? ""
    }

    // The archive has no length (chunked, none in the feed), so no preflight can see that it will not fit: the
    // staging file system fills up while it is written. At 8 MB/s (a fast real network) commits happen before the
    // disk is full; an unlimited loopback transfer fills 8 MiB before the first commit, and then nothing is durable.
    @Test(.enabled(if: Tmpfs.isAvailable(for: "DiskFullTests.download"), "needs root to mount a tmpfs"))
    func aFullStagingDiskDuringTheDownload() throws {
        let tmpfs = try Tmpfs(megabytes: 8)
        defer { tmpfs.unmount() }
        let h = try SyncHarness()
        let v1 = try DocsetFixture.make(version: "1")
        try h.publishArchive(v1, as: "A-1.tgz", folder: "A")
        try h.publishArchive(Self.incompressible(version: "2", megabytes: 12), as: "A-2.tgz", folder: "A")
        let big = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(h.www)/A-2.tgz")))
        let server = try FaultServer { request, _ in
            var response = FaultResponse.serve(big, to: request)
                .replacing("Content-Length", with: nil).replacing("Transfer-Encoding", with: "chunked")
            response.chunked = true
            return response
        }
        defer { server.stop() }
        let staging = "\(tmpfs.path)/staging"
        try h.writeAtomFeed("f.atom", [.init(identifier: "org.a", title: "A", version: "1", archive: "A-1.tgz")])
        // min_free_space = 0: this test is about the real ENOSPC, not the reserve that would stop it first.
        try h.writeConfig(
            feeds: ["f.atom"],
            extra: "staging = \"\(staging)\"\n[network]\nretries = 1\nrate_limit = \"8M\"\n"
                + "[install]\nmin_free_space = \"0\"")
        // The harness's own `staging = "staging"` comes first in the file; TOML rejects the duplicate, so replace it.
        let toml = try String(contentsOfFile: h.configPath, encoding: .utf8)
            .replacingOccurrences(of: "staging = \"staging\"\n", with: "")
        try toml.write(toFile: h.configPath, atomically: true, encoding: .utf8)
        #expect(try h.run(["sync"], environment: Tool.environment()).status == 0)

        try h.writeAtomFeed(
            "f.atom", [.init(identifier: "org.a", title: "A", version: "2", archive: server.url("A-2.tgz"))])
        let result = try h.run(["sync", "--json", "--refresh"], environment: Tool.environment())
        #expect(result.status == 3, "\(result.standardOutput)\(result.standardError)")
        let reason = Self.failure(result)
        #expect(reason.contains("No space left on device"), "\(reason)")
        #expect(reason.contains(staging), "names the path: \(reason)")
        #expect(h.installedManifest("A") == v1.expectedManifest, "the installed version is intact")
        let partial = PartialDownload.list(in: staging).first
        #expect((partial?.bytes ?? 0) > 0, "the durable partial is kept: \(String(describing: partial))")
    }

    // The archive is small (zeros compress) but unpacks to more than the root's file system holds: the preflight
    // estimate passes and the extraction itself meets ENOSPC. No socket is the subject: in process, `MemoryOrigin`.
    @Test(.enabled(if: Tmpfs.isAvailable(for: "DiskFullTests.extraction"), "needs root to mount a tmpfs"))
    func aFullRootDiskDuringTheExtraction() async throws {
        let tmpfs = try Tmpfs(megabytes: 8)
        defer { tmpfs.unmount() }
        let h = try SyncHarness.inMemory()
        let v1 = try DocsetFixture.make(version: "1")
        try h.publishArchive(v1, as: "A-1.tgz", folder: "A")
        var v2 = try DocsetFixture.make(version: "2")
        v2.files["Contents/Resources/Documents/zeros.bin"] = ([UInt8](repeating: 0, count: 12 * Self.mib), 0o644)
        try h.publishArchive(v2, as: "A-2.tgz", folder: "A")
        let root = "\(tmpfs.path)/root"
        try h.writeAtomFeed("f.atom", [.init(identifier: "org.a", title: "A", version: "1", archive: "A-1.tgz")])
        try h.writeConfig(feeds: ["f.atom"])
        let toml = try String(contentsOfFile: h.configPath, encoding: .utf8)
            .replacingOccurrences(of: "root = \"root\"\n", with: "root = \"\(root)\"\n")
        try toml.write(toFile: h.configPath, atomically: true, encoding: .utf8)
        let first = try await h.sync()
        #expect(first.status == 0, "\(first.lines)")
        let before = try SyncHarness.manifest(of: root, name: "A")

        try h.writeAtomFeed("f.atom", [.init(identifier: "org.a", title: "A", version: "2", archive: "A-2.tgz")])
        try h.bumpModificationTime("f.atom")  // same size as before
        let result = try await h.sync(SyncOptions(refresh: true))
        #expect(result.status == 3, "\(result.lines)")
        let reason = result.reason("failed") ?? ""
        #expect(reason.contains("No space left on device"), "\(reason)")
        #expect(reason.contains(root), "names the path: \(reason)")
        #expect(try SyncHarness.manifest(of: root, name: "A") == before, "the installed version is intact")
        #expect(before == v1.expectedManifest)
        let versions = try FileManager.default.contentsOfDirectory(atPath: "\(root)/.docsync/versions")
        #expect(versions.count == 1, "no partial version folder is left: \(versions)")
    }
}
