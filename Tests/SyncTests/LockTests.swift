import DocSync
import DocSyncSupport
import Foundation
import TestSupport
import Testing

/// `docsync lock` + `sync --locked`: the same docsets, byte for byte, on every machine. `lock` runs the binary (it
/// reads only the root); the syncs run in process against a `MemoryOrigin`, with the lock as `--locked` loads it.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct LockTests {
    /// A second machine: its own config, root and state beside the harness's, with the harness's lock copied in.
    func secondMachine(_ h: SyncHarness, _ name: String) throws -> String {
        let dir = h.dir.appending(name)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let config = try String(contentsOfFile: h.configPath, encoding: .utf8)
        try config.write(toFile: "\(dir)/docsync.toml", atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: h.dir.appending("docsync.lock"), toPath: "\(dir)/docsync.lock")
        return dir
    }

    func treeHash(_ path: String) throws -> String {
        let manifest = try TreeSnapshot.of(URL(fileURLWithPath: path).resolvingSymlinksInPath().path)
        return SHA256.hash(Array(manifest.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)\n" }.joined().utf8))
            .description
    }

    @Test func twoRootsSyncingOneLockEndByteIdenticalAndDriftFails() async throws {
        let h = try SyncHarness.inMemory()
        let go = try DocsetFixture.make(version: "1.21", documents: 5)
        try h.publish(go, at: "feeds/Go.tgz", folder: "Go")
        try h.writeZealCatalog([.init(name: "Go", title: "Go", versions: ["1.21"])])
        try h.writeCatalogConfig(docsets: ["name = \"Go\""])
        let first = try await h.sync()
        #expect(first.status == 0, "\(first.lines)")

        let lock = try h.run(["lock"])
        #expect(lock.status == 0, "\(lock.standardError)")
        let written = try LockFile.load(h.dir.appending("docsync.lock"))
        #expect(written.schema == 1 && written.docsets.map(\.name) == ["Go"])
        let entry = try #require(written.docsets.first)
        let archive = try Data(contentsOf: URL(fileURLWithPath: "\(h.www)/feeds/Go.tgz"))
        #expect(entry.sha256 == SHA256.hash(archive).description && entry.size == Int64(archive.count))
        #expect(entry.version == "1.21" && entry.archives == [h.url("feeds/Go.tgz")])

        // Machine B installs exactly the lock: the same tree.
        let b = try secondMachine(h, "b")
        let synced = try await h.sync(configFile: "\(b)/docsync.toml", locked: true)
        #expect(synced.status == 0, "\(synced.lines)")
        #expect(try treeHash("\(b)/root/Go.docset") == treeHash("\(h.root)/Go.docset"))

        // The publisher replaces the archive under the same URL (the feed has no checksum): machine C refuses it.
        try h.publish(try DocsetFixture.make(version: "1.21", documents: 6), at: "feeds/Go.tgz", folder: "Go")
        let c = try secondMachine(h, "c")
        let drift = try await h.sync(configFile: "\(c)/docsync.toml", locked: true)
        #expect(drift.status == 3, "\(drift.lines)")
        #expect(!FileManager.default.fileExists(atPath: "\(c)/root/Go.docset"))
        #expect(drift.names("failed") == ["Go"], "\(drift.lines)")

        // A docset selected in the config but missing from the lock is drift too.
        try h.writeCatalogConfig(docsets: ["name = \"Go\"", "name = \"Rust\""])
        let missing = try await h.sync(configFile: h.configPath, locked: true)
        #expect(missing.status == 3, "\(missing.lines)")
        let skip = missing.first("skipped")
        #expect(skip?["name"] as? String == "Rust")
        #expect((skip?["reason"] as? String)?.contains("not in docsync.lock") == true)
    }
}
