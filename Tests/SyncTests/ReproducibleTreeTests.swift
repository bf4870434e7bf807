import DocSync
import DocSyncConfigFile
import DocSyncSupport
import Foundation
import TestSupport
import Testing

/// meta.json is a pure function of what was installed: two machines installing one lock, with different learned
/// mirror orders and different clocks, get byte-identical trees — meta.json included — while each keeps its own
/// host facts (install time, the mirror used) in `<root>/.docsync/installs/`, where `status` still finds them.
@Suite(
    .enabled(if: Nginx.isInstalled, "nginx is not installed (scripts/bootstrap installs it)"),
    .timeLimit(.minutes(10)), .blockingWaits)
struct ReproducibleTreeTests {
    func treeHash(_ path: String) throws -> String {
        let manifest = try TreeSnapshot.of(URL(fileURLWithPath: path).resolvingSymlinksInPath().path, excluding: [])
        #expect(manifest["meta.json"] != nil)
        return SHA256.hash(Array(manifest.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)\n" }.joined().utf8))
            .description
    }

    /// A machine with the harness's config and lock, and `mirrors.json` saying `failing` failed a minute ago.
    func machine(_ h: SyncHarness, _ name: String, failing host: String) throws -> String {
        let dir = h.dir.appending(name)
        try FileManager.default.createDirectory(atPath: "\(dir)/state", withIntermediateDirectories: true)
        try String(contentsOfFile: h.configPath, encoding: .utf8)
            .write(toFile: "\(dir)/docsync.toml", atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: h.dir.appending("docsync.lock"), toPath: "\(dir)/docsync.lock")
        let failed = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-60))
        let alternates = """
            {"schema": 1, "hosts": {"\(host)": {"successes": 0, "failures": 1, "consecutive_failures": 1,
             "last_failure": "\(failed)"}}}
            """
        try alternates.write(toFile: "\(dir)/state/mirrors.json", atomically: true, encoding: .utf8)
        return "\(dir)/docsync.toml"
    }

    func installed(_ config: String) throws -> InstalledDocset {
        try #require(try SyncEngine(configuration: DocSyncConfigurationLoader().load(file: config)).installedDocsets().first)
    }

    @Test func twoMachinesWithDifferentMirrorOrdersAndClocksGetIdenticalTrees() throws {
        let h = try SyncHarness()
        let second = try Nginx(root: h.www)
        defer { second.stop() }
        try h.publish(try DocsetFixture.make(version: "1.21", documents: 4), at: "feeds/Go.tgz", folder: "Go")
        let urls = [h.nginx.url("feeds/Go.tgz"), second.url("feeds/Go.tgz")]
        try h.writeDashFeed("feeds/Go.xml", version: "1.21/3", alternates: urls)
        try h.writeConfig(feeds: ["feeds/Go.xml"])
        #expect(try h.run(["sync"]).status == 0)
        #expect(try h.run(["lock"]).status == 0)

        let a = try machine(h, "a", failing: HostLimiterKey.of(urls[0]))
        let b = try machine(h, "b", failing: HostLimiterKey.of(urls[1]))
        let syncA = try Tool.run(Tool.docsyncBinary, ["sync", "--locked", "--config", a])
        #expect(syncA.status == 0, "\(syncA.standardError)")
        let first = try installed(a)
        // A different clock: B installs in a later second than A (waits on the clock, not a sleep of a guess).
        let stamp = try #require(first.installedAt)
        while Date().timeIntervalSince1970.rounded(.down) <= stamp.timeIntervalSince1970 { sched_yield() }
        let syncB = try Tool.run(Tool.docsyncBinary, ["sync", "--locked", "--config", b])
        #expect(syncB.status == 0, "\(syncB.standardError)")
        let later = try installed(b)

        // Host facts differ and are still reported (status reads them from the host record)...
        #expect(first.sourceURL == urls[1] && later.sourceURL == urls[0], "each machine used its learned order")
        #expect(first.installedAt != later.installedAt && later.installedAt != nil)
        let status = try Tool.run(Tool.docsyncBinary, ["status", "--config", b])
        #expect(status.standardOutput.contains(ISO8601DateFormatter().string(from: try #require(later.installedAt))))
        // ...but the trees, meta.json included, are identical, and identical to the publisher's.
        let rootA = (a as NSString).deletingLastPathComponent + "/root/Go.docset"
        let rootB = (b as NSString).deletingLastPathComponent + "/root/Go.docset"
        #expect(try treeHash(rootA) == treeHash(rootB))
        #expect(try treeHash(rootA) == treeHash("\(h.root)/Go.docset"))
        #expect(
            FileManager.default.contents(atPath: "\(rootA)/meta.json")
                == FileManager.default.contents(atPath: "\(rootB)/meta.json"))
    }
}

/// `host:port` as docsync records mirror health (`<state>/mirrors.json`).
enum HostLimiterKey {
    static func of(_ url: String) -> String {
        let components = URLComponents(string: url)
        return "\(components?.host ?? "")\(components?.port.map { ":\($0)" } ?? "")".lowercased()
    }
}
