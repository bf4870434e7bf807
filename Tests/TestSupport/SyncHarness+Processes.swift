import Foundation

/// Syncs as separate processes against a slow server, shared by the suites about concurrency, the daemon, status
/// and interrupted runs.
extension SyncHarness {
    /// A docset big enough that a rate-limited sync takes a moment.
    package static func slowHarness(rate: Int) throws -> (SyncHarness, DocsetFixture) {
        let h = try SyncHarness(limitRate: rate)
        let fixture = try bigFixture(version: "1.0")
        try h.publishArchive(fixture, as: "Big.tgz", folder: "Big")
        try h.writeAtomFeed("f.atom", [.init(identifier: "org.big", title: "Big", version: "1.0", archive: "Big.tgz")])
        try h.writeConfig(feeds: ["f.atom"])
        return (h, fixture)
    }

    /// 300 pages plus 256 KiB of incompressible bytes, so a rate limit really stretches the download (nginx sends
    /// a small, well-compressed archive in one burst whatever its limit_rate).
    package static func bigFixture(version: String) throws -> DocsetFixture {
        var fixture = try DocsetFixture.make(version: version, documents: 300, bytesPerDocument: 12_000)
        var generator = TestRandom(label: "big \(version)")
        let blob = (0..<(256 << 10)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        fixture.files["Contents/Resources/Documents/blob.bin"] = (blob, 0o644)
        return fixture
    }

    package static func start(
        _ h: SyncHarness, _ arguments: [String], environment: [String: String]? = nil
    ) throws -> (Process, Pipe, Pipe) {
        let docsync = try DocSyncProcess(arguments + ["--config", h.configPath], environment: environment)
        return (docsync.process, docsync.output!, docsync.errors!)
    }

    package static func waitForLock(_ h: SyncHarness) throws {
        let lock = "\(h.state)/sync.lock"
        try Poll.until("a sync to hold \(lock)", timeout: 10) {
            !((try? String(contentsOfFile: lock, encoding: .utf8)) ?? "").isEmpty
        }
    }
}
