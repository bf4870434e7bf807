import DocSyncSupport

/// One docset version the mirror publishes: what a feed, the catalogue and the manifest say about it, and where
/// its archive lives in the tree (`archives/<sha256>/<file>`, immutable: a new version is a new folder).
package struct MirrorVersion: Codable, Sendable, Equatable {
    /// The folder name (`<name>.docset`) and the feed's file stem (`feeds/<name>.xml`).
    package var name: String
    package var title: String
    package var version: String
    package var revision: String?
    /// The archive's SHA-256, lowercase hex: the folder under `archives/`.
    package var sha256: String
    package var size: Int64
    /// The archive's file name in its folder (the upstream name's extension kept, e.g. `Go.tgz`).
    package var file: String
    /// The publisher's own archive URLs, tried after the mirror's copy.
    package var upstream: [String]
    package var feed: String?
    package var icon: String?
    package var icon2x: String?
    package var extra: JSONValue?
    /// How the publisher's docset arrived in Zeal's terms: `mirror import` writes the same `meta.json`.
    package var zeal: ZealArrival? = nil

    package init(
        name: String, title: String, version: String, revision: String? = nil, sha256: String, size: Int64,
        upstream: [String], feed: String? = nil, icon: String? = nil, icon2x: String? = nil, extra: JSONValue? = nil
    ) {
        self.name = name
        self.title = title
        self.version = version
        self.revision = revision
        self.sha256 = sha256
        self.size = size
        self.file = Self.fileName(name: name, upstream: upstream.first)
        self.upstream = upstream
        self.feed = feed
        self.icon = icon
        self.icon2x = icon2x
        self.extra = extra
    }

    /// `archives/<sha256>/<file>`, relative to the mirror's folder and its base URL.
    package var archivePath: String { "archives/\(sha256)/\(file)" }

    /// `VERSION[/REVISION]` as Dash feeds write it.
    package var dashVersion: String {
        guard let revision, !revision.isEmpty, revision != "0" else { return version }
        return "\(version)/\(revision)"
    }

    static let extensions = [".tar.gz", ".tar.xz", ".tar.bz2", ".tar.zst", ".tgz", ".tar", ".zip", ".txz"]

    /// `<name>` plus the upstream archive's extension (`.tgz` when it has none docsync knows).
    static func fileName(name: String, upstream: String?) -> String {
        let last = upstream?.split(separator: "/").last.map(String.init)?.lowercased() ?? ""
        let ext = extensions.first { last.hasSuffix($0) } ?? ".tgz"
        return name + ext
    }
}
