import DocSync
import Foundation

/// Catalogues served by the harness (its nginx or `MemoryOrigin`), in Zeal's and Dash's formats, with archives under
/// `www/feeds/` laid out as on Kapeli's hosts (`feeds/<Name>.tgz`, `feeds/zzz/versions/<Name>/<V>/<Name>.tgz`, …).
extension SyncHarness {
    package static let png =
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="

    package struct ZealDocset {
        package var name: String
        package var title: String
        package var versions: [String]
        package var revision = "0"
        package var aliases: [String] = []
        package var icon = true

        package init(
            name: String, title: String, versions: [String], revision: String = "0", aliases: [String] = [],
            icon: Bool = true
        ) {
            self.name = name
            self.title = title
            self.versions = versions
            self.revision = revision
            self.aliases = aliases
            self.icon = icon
        }
    }

    package func writeZealCatalog(_ docsets: [ZealDocset], file: String = "zeal.json") throws {
        let objects = docsets.map { d -> [String: Any] in
            var object: [String: Any] = [
                "name": d.name, "title": d.title, "sourceId": "com.kapeli.dash", "revision": d.revision,
                "versions": d.versions, "aliases": d.aliases,
                "extra": ["indexFilePath": "index.html", "isJavaScriptEnabled": true],
            ]
            if d.icon { (object["icon"], object["icon2x"]) = (Self.png, Self.png) }
            return object
        }
        let data = try JSONSerialization.data(withJSONObject: objects, options: [.sortedKeys])
        try data.write(to: URL(fileURLWithPath: "\(www)/\(file)"))
    }

    package func writeContribIndex(_ docsets: [String: [String: Any]], file: String = "contrib/index.json") throws {
        try FileManager.default.createDirectory(
            atPath: "\(www)/\((file as NSString).deletingLastPathComponent)", withIntermediateDirectories: true)
        let data = try JSONSerialization.data(withJSONObject: ["docsets": docsets], options: [.sortedKeys])
        try data.write(to: URL(fileURLWithPath: "\(www)/\(file)"))
    }

    /// Publishes `fixture` at `www/<path>` (creating folders), top folder `<folder>.docset/`; returns its SHA-256.
    @discardableResult
    package func publish(_ fixture: DocsetFixture, at path: String, folder: String) throws -> String {
        try FileManager.default.createDirectory(
            atPath: "\(www)/\((path as NSString).deletingLastPathComponent)", withIntermediateDirectories: true)
        return try publishArchive(fixture, as: path, folder: folder)
    }

    /// A config with the catalogues on this harness's server (contributions and cheat sheets off unless given) and
    /// `[[docset]]`s. A catalogue given as an absolute path is a local file (read with no server: what the `docsync`
    /// binary can read beside an in-memory harness).
    package func writeCatalogConfig(
        docsets: [String], zeal: String? = "zeal.json", contrib: String? = nil, alternates: [String]? = nil,
        extra: String = ""
    ) throws {
        let mirrorList = (alternates ?? [url("feeds")]).map { "\"\($0)\"" }.joined(separator: ", ")
        var toml = """
            root = "root"
            staging = "staging"
            state = "state"
            \(extra)

            [catalog]
            mirrors = [\(mirrorList)]
            [catalog.zeal]
            url = "\(zeal.map(location) ?? "")"
            [catalog.kapeli]
            base_url = "\(url("feeds"))"
            [catalog.contrib]
            url = "\(contrib.map(location) ?? "")"
            [catalog.cheatsheets]
            url = ""

            """
        for docset in docsets { toml += "\n[[docset]]\n\(docset)\n" }
        try toml.write(toFile: configPath, atomically: true, encoding: .utf8)
    }

    /// `path` as a configuration names it: an absolute path (a local file) as it is, else its URL under `www/`.
    package func location(_ path: String) -> String { path.hasPrefix("/") ? path : url(path) }
}
