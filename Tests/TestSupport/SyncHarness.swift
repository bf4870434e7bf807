import DocSync
import DocSyncConfigFile
import DocSyncMetrics
import DocSyncSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A publisher and a user on one machine: a temp folder whose `www/` is served (feeds and archives), and a docsync
/// configuration whose root, staging and state live beside it. `www/` is served by a real nginx when the test is
/// about the network or runs the `docsync` binary, else by a `MemoryOrigin` that the in-process engine (`sync()`)
/// reaches through its transport seam: no socket, no process.
package final class SyncHarness: Sendable {
    package let dir: TemporaryDirectory
    private let server: Server
    package var www: String { dir.appending("www") }
    package var root: String { dir.appending("root") }
    package var state: String { dir.appending("state") }
    package var configPath: String { dir.appending("docsync.toml") }

    private enum Server {
        case nginx(Nginx)
        case memory(MemoryOrigin)
    }

    package init(
        limitRate: Int? = nil, locations: String = "", tls: TestCertificates? = nil, http2: Bool = false
    ) throws {
        dir = try TemporaryDirectory("sync")
        try FileManager.default.createDirectory(atPath: dir.appending("www"), withIntermediateDirectories: true)
        server = .nginx(
            try Nginx(root: dir.appending("www"), limitRate: limitRate, locations: locations, http2: http2, tls: tls))
    }

    /// A harness whose `www/` a `MemoryOrigin` serves, for the in-process engine (`sync()`).
    package init(inMemory: Void) throws {
        dir = try TemporaryDirectory("sync")
        try FileManager.default.createDirectory(atPath: dir.appending("www"), withIntermediateDirectories: true)
        server = .memory(MemoryOrigin(root: dir.appending("www")))
    }

    /// A harness served in memory (see `init(inMemory:)`).
    package static func inMemory() throws -> SyncHarness { try SyncHarness(inMemory: ()) }

    deinit {
        if case .nginx(let nginx) = server { nginx.stop() }
        dir.remove()
    }

    /// The nginx serving `www/` (a harness made with `init(limitRate:…)`).
    package var nginx: Nginx {
        guard case .nginx(let nginx) = server else { preconditionFailure("an in-memory harness has no nginx") }
        return nginx
    }

    /// The in-memory origin serving `www/` (a harness made with `inMemory()`).
    package var origin: MemoryOrigin {
        guard case .memory(let origin) = server else { preconditionFailure("an nginx harness has no MemoryOrigin") }
        return origin
    }

    /// The URL of `path` under `www/`, whichever server serves it.
    package func url(_ path: String) -> String {
        switch server {
        case .nginx(let nginx): nginx.url(path)
        case .memory(let origin): origin.url(path)
        }
    }

    /// The engine for this harness's configuration file, reaching `www/` through the in-memory origin's transport,
    /// with the run observers `docsync sync` passes (the `[metrics] textfile` writer).
    package func engine() throws -> SyncEngine { try engine(configFile: configPath) }

    /// The engine for another configuration file (a second machine beside this one), through the same origin.
    package func engine(configFile: String) throws -> SyncEngine {
        let config = try DocSyncConfigurationLoader().load(file: configFile)
        return SyncEngine(
            configuration: config, transport: origin.transport,
            runObservers: MetricsTextFileObserver.observers(for: config))
    }

    /// Runs one sync in process, as `docsync sync --json` would, through the in-memory origin.
    package func sync(_ options: SyncOptions = SyncOptions()) async throws -> SyncRun {
        try await SyncRun.of(engine(), options)
    }

    /// Runs one sync in process for `configFile` (default: the harness's), through the in-memory origin; `locked`
    /// installs exactly the `docsync.lock` next to that file, as `docsync sync --locked` does.
    package func sync(
        configFile: String, locked: Bool = false, _ options: SyncOptions = SyncOptions()
    ) async throws -> SyncRun {
        var options = options
        if locked { options.lock = try LockFile.load(LockFile.path(configFile: configFile)) }
        return try await SyncRun.of(engine(configFile: configFile), options)
    }

    package struct AtomEntry {
        package var identifier: String
        package var title: String
        package var version: String
        package var archive: String
        package var updated = "2026-11-01T10:00:00Z"
        package var sha256: String?

        package init(
            identifier: String, title: String, version: String, archive: String,
            updated: String = "2026-11-01T10:00:00Z", sha256: String? = nil
        ) {
            self.identifier = identifier
            self.title = title
            self.version = version
            self.archive = archive
            self.updated = updated
            self.sha256 = sha256
        }
    }

    /// Writes an archive of `fixture` (top folder `<folder>.docset/`) into www and returns its file name and SHA-256.
    @discardableResult
    package func publishArchive(
        _ fixture: DocsetFixture, as file: String, folder: String = "Fixture"
    ) throws -> String {
        try fixture.writeArchive(to: "\(www)/\(file)", prefix: "\(folder).docset/")
        return try SHA256.hash(Data(contentsOf: URL(fileURLWithPath: "\(www)/\(file)"))).description
    }

    package func writeAtomFeed(_ file: String, _ entries: [AtomEntry]) throws {
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:docset="http://developer.apple.com/rss/docset_extensions">
            <id>tag:test,2026:feed</id><title>Test feed</title><updated>2026-11-01T10:00:00Z</updated>

            """
        for e in entries {
            xml += """
                <entry><id>tag:test,2026:\(e.identifier)/\(e.version)</id><title>\(e.title)</title>
                <updated>\(e.updated)</updated>
                <link rel="enclosure" href="\(e.archive)"/>
                <docset:identifier>\(e.identifier)</docset:identifier><docset:version>\(e.version)</docset:version>
                \(e.sha256.map { "<docset:sha256>\($0)</docset:sha256>" } ?? "")
                </entry>

                """
        }
        xml += "</feed>\n"
        try ServedFile.write(xml, to: "\(www)/\(file)")
    }

    /// Moves `file`'s mtime a minute on: a rewrite of the same size in the same second keeps nginx's ETag (mtime +
    /// size), and the next sync would get 304 Not Modified for the new content.
    package func bumpModificationTime(_ file: String) throws {
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: "\(www)/\(file)")
    }

    package func writeDashFeed(_ file: String, version: String, alternates: [String]) throws {
        let urls = alternates.map { "<url>\($0)</url>" }.joined()
        try ServedFile.write("<entry><version>\(version)</version>\(urls)</entry>\n", to: "\(www)/\(file)")
    }

    /// A configuration with `feeds`: a URL or an absolute path (a local feed file) as it is, else a path under `www/`.
    package func writeConfig(feeds: [String], extra: String = "") throws {
        var toml = "root = \"root\"\nstaging = \"staging\"\nstate = \"state\"\n\(extra)\n"
        for feed in feeds {
            toml += "\n[[feed]]\nurl = \"\(feed.contains("://") || feed.hasPrefix("/") ? feed : url(feed))\"\n"
        }
        try toml.write(toFile: configPath, atomically: true, encoding: .utf8)
    }

    package func configuration() throws -> DocSyncConfiguration {
        try DocSyncConfigurationLoader().load(file: configPath)
    }

    /// Runs the real `docsync` binary with `--config` appended.
    package func run(_ arguments: [String], environment: [String: String]? = nil) throws -> Tool.Result {
        try Tool.run(Tool.docsyncBinary, arguments + ["--config", configPath], environment: environment)
    }

    /// The JSON events a `sync --json` run printed.
    package static func events(_ result: Tool.Result) -> [[String: Any]] {
        result.standardOutput.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    package static func names(_ events: [[String: Any]], _ kind: String) -> [String] {
        events.filter { $0["event"] as? String == kind }.compactMap { $0["name"] as? String }.sorted()
    }

    package struct Unresolvable: Error, CustomStringConvertible {
        package let description: String
    }

    /// What a reader finds at `<root>/<name>.docset`: nil when there is no entry at all, else the manifest of the
    /// complete version it resolves to. Throws when the entry exists but is not a link into `.docsync/versions/`
    /// resolving to a readable folder (a dangling or stray link is a failure, never "not installed").
    package func resolvedManifest(_ name: String) throws -> [String: String]? {
        let path = "\(root)/\(name).docset"
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) else {
            throw Unresolvable(description: "\(name).docset is not a symlink")
        }
        guard target.hasPrefix(".docsync/versions/"), !target.contains("/../") else {
            throw Unresolvable(description: "\(name).docset points outside .docsync/versions: \(target)")
        }
        let resolved = "\(root)/\(target)"
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw Unresolvable(description: "\(name).docset -> \(target) does not resolve to a folder")
        }
        return try TreeSnapshot.of(resolved)
    }

    /// After a kill: the root shows no other entry than `<name>.docset`, and that is absent or resolves to exactly one
    /// of the `allowed` manifests (a complete version, never a mix). `context` (trial, seed) goes in every failure.
    package func expectCompleteOrAbsent(
        _ name: String, allowed: [[String: String]], _ context: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []  // no root yet: fine
        let visible = entries.filter { !$0.hasPrefix(".") }
        #expect(visible.allSatisfy { $0 == "\(name).docset" }, "\(context): \(visible)", sourceLocation: sourceLocation)
        do {
            if let manifest = try resolvedManifest(name) {
                #expect(
                    allowed.contains(manifest), "\(context): a complete version, never a mix",
                    sourceLocation: sourceLocation)
            }
        } catch {
            Issue.record("\(context): \(error)", sourceLocation: sourceLocation)
        }
    }

    /// The manifest of `<root>/<name>.docset` for a root outside the harness's folder (nil when absent).
    package static func manifest(of root: String, name: String) throws -> [String: String]? {
        let path = "\(root)/\(name).docset"
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try TreeSnapshot.of(URL(fileURLWithPath: path).resolvingSymlinksInPath().path)
    }

    /// The manifest of `<root>/<name>.docset` as a reader sees it through the symlink (nil when absent).
    package func installedManifest(_ name: String) -> [String: String]? {
        let path = "\(root)/\(name).docset"
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try? TreeSnapshot.of(URL(fileURLWithPath: path).resolvingSymlinksInPath().path)
    }
}
