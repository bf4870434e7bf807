import DocSync
import DocSyncSupport
import Foundation
import TestSupport

/// The fleet of the issue, every part real: an origin nginx (the docset publisher's server), a docsync host that
/// syncs from it and publishes `[mirror]`, nginx serving the mirror tree with the shipped config, an nginx caching
/// tier (slice) in front of it with the shipped config, and client roots that sync through the caching tier.
final class MirrorFleet: @unchecked Sendable {
    let dir: TemporaryDirectory
    let origin: Nginx
    let mirror: Nginx
    let cache: Nginx
    var originWWW: String { dir.appending("origin") }
    var mirrorDirectory: String { dir.appending("mirror") }
    var publisherConfig: String { dir.appending("publisher/docsync.toml") }
    var publisherRoot: String { dir.appending("publisher/root") }

    init(keep: Int = 2, grace: String = "1h") throws {
        dir = try TemporaryDirectory("fleet")
        let fm = FileManager.default
        for folder in ["origin", "mirror", "publisher", "cache", "empty"] {
            try fm.createDirectory(atPath: dir.appending(folder), withIntermediateDirectories: true)
        }
        let shipped = try ShippedNginxConfig()
        origin = try Nginx(root: dir.appending("origin"))
        mirror = try Nginx(root: dir.appending("mirror"), locations: shipped.mirrorLocations)
        let tier = shipped.cachingTier(mirrorPort: mirror.port, cacheDirectory: dir.appending("cache"))
        cache = try Nginx(root: dir.appending("empty"), locations: tier.locations, http: tier.http)
        try """
        root = "root"
        staging = "staging"
        state = "state"

        [mirror]
        dir = "\(mirrorDirectory)"
        base_url = "\(cache.url(""))"
        keep = \(keep)
        grace_period = "\(grace)"

        [[feed]]
        url = "\(origin.url("Go.xml"))"
        """.write(toFile: publisherConfig, atomically: true, encoding: .utf8)
    }

    deinit {
        cache.stop()
        mirror.stop()
        origin.stop()
        dir.remove()
    }

    /// Puts version `version` of Go on the origin: an archive of ~`megabytes` MiB (seeded random bytes, so it does
    /// not compress) and a Dash feed naming it. Returns the archive's SHA-256.
    @discardableResult
    func originPublishes(version: String, megabytes: Int = 3, seed: UInt64) throws -> String {
        var fixture = try DocsetFixture.make(version: version, documents: 4)
        var generator = TestRandom(seed: seed)
        let blob = (0..<(megabytes << 20)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        fixture.files["Contents/Resources/Documents/blob.bin"] = (blob, 0o644)
        let file = "Go-\(version).tgz"
        try fixture.writeArchive(to: "\(originWWW)/\(file)", prefix: "Go.docset/")
        try ServedFile.write(
            "<entry><version>\(version)</version><url>\(origin.url(file))</url></entry>\n", to: "\(originWWW)/Go.xml")
        return SHA256.hash(try Data(contentsOf: URL(fileURLWithPath: "\(originWWW)/\(file)"))).description
    }

    /// Runs the real `docsync` for the publisher.
    func publisher(_ arguments: [String]) throws -> Tool.Result {
        try Tool.run(Tool.docsyncBinary, arguments + ["--config", publisherConfig])
    }

    /// A client root syncing the mirror's Dash feed through the caching tier; returns its config path.
    func client(_ name: String, extra: String = "") throws -> String {
        let folder = dir.appending("clients/\(name)")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try """
        root = "root"
        staging = "staging"
        state = "state"
        \(extra)

        [[feed]]
        url = "\(cache.url("feeds/Go.xml"))"
        """.write(toFile: "\(folder)/docsync.toml", atomically: true, encoding: .utf8)
        return "\(folder)/docsync.toml"
    }

    /// Starts `docsync sync` for a client config (output discarded, or its `--json` events written to `json`).
    static func startSync(_ config: String, json: String? = nil) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Tool.docsyncBinary)
        process.arguments = ["sync", "--config", config] + (json == nil ? [] : ["--json"])
        if let json {
            _ = FileManager.default.createFile(atPath: json, contents: nil)
            process.standardOutput = FileHandle(forWritingAtPath: json)
        } else {
            process.standardOutput = FileHandle.nullDevice
        }
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// The installed Go tree of the root beside `config` (meta.json excluded), nil when not installed.
    static func tree(_ root: String) -> [String: String]? {
        let path = "\(root)/Go.docset"
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try? TreeSnapshot.of(URL(fileURLWithPath: path).resolvingSymlinksInPath().path)
    }

    static func root(ofClient config: String) -> String {
        (config as NSString).deletingLastPathComponent + "/root"
    }

    /// GETs of archives in an nginx access log.
    static func archiveRequests(_ nginx: Nginx) -> [Nginx.LogEntry] {
        nginx.accessLog().filter { $0.method == "GET" && $0.uri.hasSuffix(".tgz") }
    }
}
