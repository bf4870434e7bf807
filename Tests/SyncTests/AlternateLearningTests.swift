import DocSync
import Foundation
import TestSupport
import Testing

/// Mirrors tried in a learned order: a dead or slow host is demoted after one sync, across process restarts
/// (every sync is a new `docsync` process); a mirror answering 200 with a page or nothing is skipped.
@Suite(
    .enabled(if: Nginx.isInstalled, "nginx is not installed (scripts/bootstrap installs it)"),
    .timeLimit(.minutes(10)), .blockingWaits)
struct AlternateLearningTests {
    struct HostRecord: Decodable {
        var successes: Int
        var failures: Int
    }

    func hosts(_ h: SyncHarness) throws -> [String: HostRecord] {
        struct File: Decodable {
            var schema: Int
            var hosts: [String: HostRecord]
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: "\(h.state)/mirrors.json"))
        return try JSONDecoder().decode(File.self, from: data).hosts
    }

    /// Publishes version `version` of Go at every base and points the catalogue at it.
    func publishGo(_ h: SyncHarness, version: String, documents: Int, in folders: [String]) throws {
        let fixture = try DocsetFixture.make(version: version, documents: documents)
        for folder in folders { try h.publish(fixture, at: "\(folder)/Go.tgz", folder: "Go") }
        try h.writeZealCatalog([.init(name: "Go", title: "Go", versions: [version])])
    }

    @Test func aDeadHostIsDemotedAfterOneSync() throws {
        let h = try SyncHarness()
        let dead = "http://127.0.0.1:\(try Loopback.freePort())/feeds"
        try publishGo(h, version: "1", documents: 2, in: ["feeds"])
        try h.writeCatalogConfig(docsets: ["name = \"Go\""], alternates: [dead, h.nginx.url("feeds")])
        let first = try h.run(["sync"])
        #expect(first.status == 0, "\(first.standardError)")
        let deadHost = String(dead.dropFirst("http://".count).prefix { $0 != "/" })
        let live = "127.0.0.1:\(h.nginx.port)"
        var learned = try hosts(h)
        #expect(learned[deadHost]?.failures == 1 && learned[live]?.successes == 1)

        try publishGo(h, version: "1.0.1", documents: 3, in: ["feeds"])
        let second = try h.run(["sync"])
        #expect(second.status == 0, "\(second.standardError)")
        learned = try hosts(h)
        #expect(learned[deadHost]?.failures == 1, "the dead host was not tried again")
        #expect(learned[live]?.successes == 2)
    }

    @Test func aSlowHostIsDemotedAfterOneSync() throws {
        let h = try SyncHarness()
        let slow = try Nginx(root: h.www, limitRate: 64 << 10)
        defer { slow.stop() }
        try publishGo(h, version: "1", documents: 40, in: ["feeds"])
        try h.writeCatalogConfig(docsets: ["name = \"Go\""], alternates: [slow.url("feeds"), h.nginx.url("feeds")])
        #expect(try h.run(["sync"]).status == 0)
        let first = slow.accessLog().filter { $0.uri.hasSuffix(".tgz") }
        #expect(first.count == 1, "the first sync used the first mirror")

        try publishGo(h, version: "1.0.1", documents: 41, in: ["feeds"])
        #expect(try h.run(["sync"]).status == 0)
        #expect(slow.accessLog().filter { $0.uri.hasSuffix(".tgz") }.count == 1, "the slow host was not asked again")
        #expect(h.nginx.accessLog().filter { $0.uri.hasSuffix("Go.tgz") }.count == 1)
    }

    @Test func softNotFoundMirrorsAreSkippedNeverInstalled() throws {
        let h = try SyncHarness(
            locations: """
                location /soft/ { default_type text/html; return 200 "<html><body>Not found</body></html>"; }
                location /empty/ { default_type application/octet-stream; return 200 ""; }
                """)
        let fixture = try DocsetFixture.make(version: "1", documents: 3)
        try h.publish(fixture, at: "feeds/Go.tgz", folder: "Go")
        try h.writeZealCatalog([.init(name: "Go", title: "Go", versions: ["1"])])
        try h.writeCatalogConfig(
            docsets: ["name = \"Go\""],
            alternates: [h.nginx.url("soft/feeds"), h.nginx.url("empty/feeds"), h.nginx.url("feeds")])
        let result = try h.run(["sync", "--json"])
        #expect(result.status == 0, "\(result.standardError)\(result.standardOutput)")
        #expect(h.installedManifest("Go")?.filter { !$0.key.hasPrefix("icon") } == fixture.expectedManifest)
        let asked = h.nginx.accessLog().map(\.uri).filter { $0.hasSuffix(".tgz") }
        #expect(asked == ["/soft/feeds/Go.tgz", "/empty/feeds/Go.tgz", "/feeds/Go.tgz"], "\(asked)")
    }

    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// Host health learned as (bytes per second, consecutive failures) per host, the failures a minute before `now`.
    static func hosts(_ learned: [String: (Double?, Int)]) -> [String: HostHealth] {
        learned.mapValues { speed, failures in
            var health = HostHealth()
            health.bytesPerSecond = speed
            health.consecutiveFailures = failures
            health.lastFailure = failures > 0 ? now.addingTimeInterval(-60) : nil
            return health
        }
    }

    @Test(arguments: [
        // (urls, hosts' speeds / failures, expected order)
        (
            ["http://a/x", "http://b/x", "http://c/x"], [String: (Double?, Int)](),
            ["http://a/x", "http://b/x", "http://c/x"]
        ),
        (["http://a/x", "http://b/x"], ["a": (nil, 1)], ["http://b/x", "http://a/x"]),
        (["http://a/x", "http://b/x"], ["a": (1e4, 0)], ["http://b/x", "http://a/x"]),
        (["http://a/x", "http://b/x"], ["a": (1e4, 0), "b": (1e7, 0)], ["http://b/x", "http://a/x"]),
        (["http://a/x", "http://b/x"], ["a": (1.5e6, 0), "b": (1.9e6, 0)], ["http://a/x", "http://b/x"]),
        (
            ["http://a/x", "http://b/x", "http://c/x"], ["a": (nil, 3), "b": (nil, 1)],
            ["http://c/x", "http://b/x", "http://a/x"]
        ),
    ])
    func rankingIsStableAndPrefersHealthyFastHosts(
        urls: [String], learned: [String: (Double?, Int)], expected: [String]
    ) {
        #expect(AlternateRanking.order(urls, hosts: Self.hosts(learned), now: Self.now) == expected)
    }

    /// A lock's order (the URL last used first) is kept: a measured fast host or a never-measured one does not jump
    /// ahead; only hosts failing now go back.
    @Test(arguments: [
        (
            ["http://a/x", "http://b/x", "http://c/x"], [String: (Double?, Int)](),
            ["http://a/x", "http://b/x", "http://c/x"]
        ),
        (["http://a/x", "http://b/x"], ["a": (1e4, 0), "b": (1e7, 0)], ["http://a/x", "http://b/x"]),
        (["http://a/x", "http://b/x"], ["a": (1e4, 0)], ["http://a/x", "http://b/x"]),
        (
            ["http://a/x", "http://b/x", "http://c/x"], ["a": (nil, 2), "b": (nil, 1)],
            ["http://c/x", "http://b/x", "http://a/x"]
        ),
    ])
    func aLocksOrderIsKeptExceptForFailingHosts(
        urls: [String], learned: [String: (Double?, Int)], expected: [String]
    ) {
        #expect(AlternateRanking.orderKeepingSequence(urls, hosts: Self.hosts(learned), now: Self.now) == expected)
    }
}
