@testable import DocSync
import DocSyncSupport
import Foundation
import TestSupport
import Testing

/// `docsync.lock` keeps archive URLs redacted; `sync --locked` downloads with the configuration's credentials.
@Suite(
    .enabled(if: Nginx.isInstalled, "nginx is not installed (scripts/bootstrap installs it)"),
    .timeLimit(.minutes(10)), .blockingWaits)
struct LockCredentialsTests {
    struct Row: Sendable, CustomStringConvertible {
        var locked: String
        var configured: [String]
        var expected: String?
        var description: String { locked }
    }

    static let rows: [Row] = [
        // Nothing redacted: as is.
        Row(locked: "https://h/a.tgz", configured: [], expected: "https://h/a.tgz"),
        // A password from a configured URL of the same origin and user.
        Row(
            locked: "https://alice:***@h/docs/a.tgz", configured: ["https://alice:pw@h/feeds/a.xml"],
            expected: "https://alice:pw@h/docs/a.tgz"),
        // Another user, another host, another port or scheme supplies nothing.
        Row(locked: "https://alice:***@h/a.tgz", configured: ["https://bob:pw@h/a.xml"], expected: nil),
        Row(locked: "https://alice:***@h/a.tgz", configured: ["https://alice:pw@other/a.xml"], expected: nil),
        Row(locked: "https://alice:***@h:8443/a.tgz", configured: ["https://alice:pw@h/a.xml"], expected: nil),
        Row(locked: "https://alice:***@h/a.tgz", configured: ["http://alice:pw@h/a.xml"], expected: nil),
        // A token by its parameter name; other parameters kept in order.
        Row(
            locked: "https://h/a.tgz?v=2&token=***&x", configured: ["https://h/feed.xml?token=abc"],
            expected: "https://h/a.tgz?v=2&token=abc&x"),
        Row(locked: "https://h/a.tgz?token=***", configured: ["https://h/feed.xml?key=abc"], expected: nil),
        // The configured URL whose folder holds the archive wins over a sibling on the same host.
        Row(
            locked: "https://h/m2/a.tgz?sig=***",
            configured: ["https://h/m1/f.xml?sig=one", "https://h/m2/f.xml?sig=two"],
            expected: "https://h/m2/a.tgz?sig=two"),
        // Both at once; a local path in the configuration is ignored.
        Row(
            locked: "https://u:***@h/a.tgz?auth=***#top", configured: ["/srv/feed.xml", "https://u:p@h/?auth=q"],
            expected: "https://u:p@h/a.tgz?auth=q#top"),
        // A configured URL that is itself redacted-looking supplies nothing.
        Row(locked: "https://u:***@h/a.tgz", configured: ["https://u:***@h/f.xml"], expected: nil),
    ]

    @Test(arguments: rows) func restoresOnlyFromTheSameOrigin(_ row: Row) {
        #expect(LockCredentials(configured: row.configured).restore(row.locked) == row.expected)
    }

    /// nginx requiring basic auth (`/private/`, htpasswd written here) and a token query parameter (`/signed/`).
    func harness(_ secrets: TemporaryDirectory) throws -> SyncHarness {
        let htpasswd = secrets.appending("htpasswd")
        try "alice:{PLAIN}s3cret\n".write(toFile: htpasswd, atomically: true, encoding: .utf8)
        return try SyncHarness(
            locations: """
                location /private/ { auth_basic "docs"; auth_basic_user_file \(htpasswd); }
                location /signed/ { if ($arg_token != "t0ken") { return 403; } }
                """)
    }

    func credentialed(_ h: SyncHarness, _ path: String) -> String {
        h.nginx.url(path).replacingOccurrences(of: "http://", with: "http://alice:s3cret@")
    }

    func machine(_ h: SyncHarness, _ name: String, config: String) throws -> String {
        let dir = h.dir.appending(name)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try config.write(toFile: "\(dir)/docsync.toml", atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: h.dir.appending("docsync.lock"), toPath: "\(dir)/docsync.lock")
        return dir
    }

    @Test func lockedSyncDownloadsWithTheConfiguredCredentialsAndTheLockHasNone() throws {
        let secrets = try TemporaryDirectory("lock-secrets")
        defer { secrets.remove() }
        let h = try harness(secrets)
        try h.publish(try DocsetFixture.make(version: "1.21", documents: 4), at: "private/Go.tgz", folder: "Go")
        try h.publish(try DocsetFixture.make(version: "1.75", documents: 3), at: "signed/Rust.tgz", folder: "Rust")
        try h.writeDashFeed("private/Go.xml", version: "1.21", alternates: [credentialed(h, "private/Go.tgz")])
        try h.writeDashFeed("signed/Rust.xml", version: "1.75", alternates: [h.nginx.url("signed/Rust.tgz?token=t0ken")])
        try h.writeConfig(feeds: [credentialed(h, "private/Go.xml"), h.nginx.url("signed/Rust.xml?token=t0ken")])
        let first = try h.run(["sync"])
        #expect(first.status == 0, "\(first.standardError)")
        #expect(try h.run(["lock"]).status == 0)

        // The lock names the archives without their secrets.
        let lockText = try String(contentsOfFile: h.dir.appending("docsync.lock"), encoding: .utf8)
        #expect(!lockText.contains("s3cret") && !lockText.contains("t0ken"), "\(lockText)")
        #expect(lockText.contains("alice:***@") && lockText.contains("token=***"), "\(lockText)")

        // Machine B, the same configuration (credentials in it): installs exactly the lock, every request allowed.
        let before = h.nginx.accessLog().count
        let b = try machine(h, "b", config: try String(contentsOfFile: h.configPath, encoding: .utf8))
        let synced = try Tool.run(Tool.docsyncBinary, ["sync", "--locked", "--json", "--config", "\(b)/docsync.toml"])
        #expect(synced.status == 0, "\(synced.standardError)\(synced.standardOutput)")
        for name in ["Go", "Rust"] {
            #expect(try SyncHarness.manifest(of: "\(b)/root", name: name) == h.installedManifest(name))
        }
        let requests = h.nginx.accessLog().dropFirst(before)
        #expect(requests.contains { $0.uri == "/private/Go.tgz" && $0.status == 200 })
        #expect(requests.contains { $0.uri == "/signed/Rust.tgz?token=t0ken" && $0.status == 200 })
        #expect(!requests.contains { $0.status == 401 || $0.status == 403 || $0.uri.contains("*") }, "\(requests)")
        let lockAfter = try String(contentsOfFile: "\(b)/docsync.lock", encoding: .utf8)
        #expect(lockAfter == lockText)
        let meta = try String(contentsOfFile: "\(b)/root/Go.docset/meta.json", encoding: .utf8)
        #expect(!meta.contains("s3cret"))

        // Machine C's configuration has no credentials: each docset fails saying so; `***` is never requested.
        let bare = "root = \"root\"\nstaging = \"staging\"\nstate = \"state\"\n"
        let c = try machine(h, "c", config: bare)
        let mark = h.nginx.accessLog().count
        let refused = try Tool.run(Tool.docsyncBinary, ["sync", "--locked", "--json", "--config", "\(c)/docsync.toml"])
        #expect(refused.status == 3, "\(refused.standardError)\(refused.standardOutput)")
        let skipped = SyncHarness.events(refused).filter { $0["event"] as? String == "skipped" }
        #expect(skipped.compactMap { $0["name"] as? String }.sorted() == ["Go", "Rust"], "\(refused.standardOutput)")
        #expect(skipped.allSatisfy { ($0["reason"] as? String)?.contains("credentials") == true }, "\(skipped)")
        #expect(h.nginx.accessLog().count == mark)
    }
}
