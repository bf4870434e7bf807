import DocSyncInstall
import Foundation
import TestSupport
import Testing

/// Host facts live beside the tree (`<root>/.docsync/installs/<NAME@ID>`), and installs made before that, whose
/// meta.json carried them, still read back.
@Suite(.timeLimit(.minutes(10))) struct HostRecordTests {
    @Test func aVersionInstalledBeforeHostRecordsReadsItsFactsFromMetaJSON() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let path = h.archive("1.tgz")
        try DocsetFixture.make(version: "1").writeArchive(to: path)
        let installed = try await h.installer.install(archive: path, as: InstallRequest(name: "Old", version: "1"))
        let version = (installed.path as NSString).lastPathComponent
        let record = "\(h.installer.root)/.docsync/installs/\(version)"
        #expect(FileManager.default.fileExists(atPath: record))
        try FileManager.default.removeItem(atPath: record)
        // meta.json as docsync wrote it before: host facts in extra.docsync, the feed in feed_url.
        let old = """
            {"name": "Old", "title": "Old", "version": "1", "revision": "2", "feed_url": "https://example.org/Old.xml",
             "urls": ["https://example.org/Old.tgz"],
             "extra": {"docsync": {"version": "1", "archive_size": 10, "unpacked_bytes": 20, "file_count": 3,
              "installed_at": "2026-01-02T03:04:05Z", "source_url": "https://example.org/Old.tgz"}}}
            """
        let meta = "\(installed.path)/meta.json"
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: meta)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: installed.path)
        try FileManager.default.removeItem(atPath: meta)
        try old.write(toFile: meta, atomically: false, encoding: .utf8)

        let listed = try #require(try h.installer.installedDocsets().first)
        #expect(listed.installedAt == ISO8601DateFormatter().date(from: "2026-01-02T03:04:05Z"))
        #expect(listed.sourceURL == "https://example.org/Old.tgz")
        #expect(listed.feedURL == "https://example.org/Old.xml")
        #expect(listed.urls == ["https://example.org/Old.tgz"])
        #expect(listed.version == "1" && listed.revision == "2")
    }
}
