import DocSync
import DocSyncConfigFile
import DocSyncSupport
import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A publisher and a user on one machine: a temp folder whose `www/` a real nginx serves (feeds and archives),
/// and a docsync configuration whose root, staging and state live beside it.
final class SyncHarness: Sendable {
    let dir: TemporaryDirectory
    let nginx: Nginx
    var www: String { dir.appending("www") }
    var root: String { dir.appending("root") }
    var state: String { dir.appending("state") }
    var configPath: String { dir.appending("docsync.toml") }

    init(limitRate: Int? = nil, locations: String = "", tls: TestCertificates? = nil, http2: Bool = false) throws {
        dir = try TemporaryDirectory("sync")
        try FileManager.default.createDirectory(atPath: dir.appending("www"), withIntermediateDirectories: true)
        nginx = try Nginx(
            root: dir.appending("www"), limitRate: limitRate, locations: locations, http2: http2, tls: tls)
    }

    deinit {
        nginx.stop()
        dir.remove()
    }

    struct AtomEntry {
        var identifier: String
        var title: String
        var version: String
        var archive: String
        var updated = "2026-11-01T10:00:00Z"
        var sha256: String?
    }

    /// Writes an archive of `fixture` (top folder `<folder>.docset/`) into www and returns its file name and SHA-256.
    @discardableResult
    func publishArchive(_ fixture: DocsetFixture, as file: String, folder: String = "Fixture") throws -> String {
        try fixture.writeArchive(to: "\(www)/\(file)", prefix: "\(folder).docset/")
        return try SHA256.hash(Data(contentsOf: URL(fileURLWithPath: "\(www)/\(file)"))).description
    }

    func writeAtomFeed(_ file: String, _ entries: [AtomEntry]) throws {
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
    func bumpModificationTime(_ file: String) throws {
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: "\(www)/\(file)")
    }

    func writeDashFeed(_ file: String, version: String, alternates: [String]) throws {
        let urls = alternates.map { "<url>\($0)</url>" }.joined()
        try ServedFile.write("<entry><version>\(version)</version>\(urls)</entry>\n", to: "\(www)/\(file)")
    }

    func writeConfig(feeds: [String], extra: String = "") throws {
        var toml = "root = \"root\"\nstaging = \"staging\"\nstate = \"state\"\n\(extra)\n"
        for feed in feeds { toml += "\n[[feed]]\nurl = \"\(feed.contains("://") ? feed : nginx.url(feed))\"\n" }
        try toml.write(toFile: configPath, atomically: true, encoding: .utf8)
    }

    func configuration() throws -> DocSyncConfiguration { try DocSyncConfigurationLoader().load(file: configPath) }

    /// Runs the real `docsync` binary with `--config` appended.
    func run(_ arguments: [String], environment: [String: String]? = nil) throws -> Tool.Result {
        try Tool.run(Tool.docsyncBinary, arguments + ["--config", configPath], environment: environment)
    }

    /// The JSON events a `sync --json` run printed.
    static func events(_ result: Tool.Result) -> [[String: Any]] {
        result.standardOutput.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    static func names(_ events: [[String: Any]], _ kind: String) -> [String] {
        events.filter { $0["event"] as? String == kind }.compactMap { $0["name"] as? String }.sorted()
    }

    struct Unresolvable: Error, CustomStringConvertible {
        let description: String
    }

    /// What a reader finds at `<root>/<name>.docset`: nil when there is no entry at all, else the manifest of the
    /// complete version it resolves to. Throws when the entry exists but is not a link into `.docsync/versions/`
    /// resolving to a readable folder (a dangling or stray link is a failure, never "not installed").
    func resolvedManifest(_ name: String) throws -> [String: String]? {
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
        return try TreeManifest.of(resolved)
    }

    /// The manifest of `<root>/<name>.docset` for a root outside the harness's folder (nil when absent).
    static func manifest(of root: String, name: String) throws -> [String: String]? {
        let path = "\(root)/\(name).docset"
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try TreeManifest.of(URL(fileURLWithPath: path).resolvingSymlinksInPath().path)
    }

    /// The manifest of `<root>/<name>.docset` as a reader sees it through the symlink (nil when absent).
    func installedManifest(_ name: String) -> [String: String]? {
        let path = "\(root)/\(name).docset"
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try? TreeManifest.of(URL(fileURLWithPath: path).resolvingSymlinksInPath().path)
    }
}
