import DocSyncSupport
import Foundation

/// The mirror's published documents, rendered from its state (pure): a Dash feed per docset, one Atom docset feed,
/// a catalogue in Zeal's shape. Archive URLs are `<baseURL>/archives/<sha256>/<file>`, the upstream ones after.
package struct MirrorDocuments: Sendable {
    package let baseURL: String
    package let state: MirrorState
    /// Archives (by SHA-256) with a tarix index beside them (`<archive>.tarix`): `"tarix": true` in the catalogue.
    package var indexed: Set<String> = []

    package init(baseURL: String, state: MirrorState) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.state = state
    }

    /// `feeds/<name>.xml`, relative to the mirror.
    package static func feedPath(_ name: String) -> String { "feeds/\(name).xml" }
    /// `feeds/zeal/<name>.xml`: the feed to give Zeal's "Add feed" (see `zealFeed`).
    package static func zealFeedPath(_ name: String) -> String { "feeds/zeal/\(name).xml" }
    package static let atomPath = "docsets.atom"
    package static let cataloguePath = "catalogue.json"
    package static let manifestPath = "manifest.lock"

    package func url(_ path: String) -> String {
        "\(baseURL)/\(path.addingPercentEncoding(withAllowedCharacters: Self.pathAllowed) ?? path)"
    }

    /// The mirror's copy first, then the upstream URLs — except those carrying a credential (a password or a secret
    /// query parameter): a mirror's documents are public, and the secret is not the mirror's to hand out.
    package func archiveURLs(_ version: MirrorVersion) -> [String] {
        [url(version.archivePath)]
            + version.upstream.filter { !$0.hasPrefix(baseURL + "/") && $0.redactingCredentials == $0 }
    }

    /// A Dash feed: `<version>`, `<sha256>`, the `<url>`s, `<other-versions>` for the older kept versions.
    package func dashFeed(_ name: String) -> String {
        let versions = state.docsets[name] ?? []
        guard let latest = versions.first else { return "" }
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<entry>\n"
        xml += "    <version>\(Self.escape(latest.dashVersion))</version>\n"
        xml += "    <sha256>\(latest.sha256)</sha256>\n"
        for url in archiveURLs(latest) { xml += "    <url>\(Self.escape(url))</url>\n" }
        if versions.count > 1 {
            xml += "    <other-versions>\n"
            for old in versions.dropFirst() {
                xml += "        <version><name>\(Self.escape(old.dashVersion))</name></version>\n"
            }
            xml += "    </other-versions>\n"
        }
        return xml + "</entry>\n"
    }

    /// The Zeal-facing Dash feed: the latest `<version>` and one `<url>`, the mirror's copy. Zeal's "Add feed" picks a
    /// random `<url>` (`DocsetMetadata::url()`) and never reads `<sha256>`, so the fallbacks of `dashFeed` would send
    /// part of a Zeal fleet to the publisher; and it reads a `<name>` inside `<other-versions>` as the docset's name,
    /// so none are listed. docsync clients use `dashFeed`, which keeps the fallbacks and the checksum.
    package func zealFeed(_ name: String) -> String {
        guard let latest = state.docsets[name]?.first else { return "" }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<entry>\n"
            + "    <version>\(Self.escape(latest.dashVersion))</version>\n"
            + "    <url>\(Self.escape(url(latest.archivePath)))</url>\n</entry>\n"
    }

    /// One Atom feed (Apple's docset extension) with an entry per kept version of every docset.
    package func atomFeed(updated: Date) -> String {
        let stamp = ISO8601DateFormatter().string(from: updated)
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:docset="http://developer.apple.com/rss/docset_extensions">
                <id>\(Self.escape(url(Self.atomPath)))</id>
                <title>docsync mirror</title>
                <updated>\(stamp)</updated>
                <link rel="self" href="\(Self.escape(url(Self.atomPath)))"/>

            """
        for name in state.docsets.keys.sorted() {
            for version in state.docsets[name] ?? [] {
                let href = Self.escape(url(version.archivePath))
                xml += """
                        <entry>
                            <id>\(href)</id>
                            <title>\(Self.escape(version.name))</title>
                            <updated>\(stamp)</updated>
                            <link rel="enclosure" href="\(href)" length="\(version.size)"/>
                            <docset:identifier>\(Self.escape(version.name))</docset:identifier>
                            <docset:version>\(Self.escape(version.dashVersion))</docset:version>
                            <docset:sha256>\(version.sha256)</docset:sha256>
                        </entry>

                    """
            }
        }
        return xml + "</feed>\n"
    }

    /// Zeal's catalogue shape (`name`, `title`, `sourceId`, `revision`, `versions`, `icon`, `icon2x`, `extra`,
    /// `size`, `feed_url`, `urls`, `tarix` when the archive's index is published beside it), plus `sha256`.
    package func catalogue() -> [UInt8] {
        var items: [JSONValue] = []
        for name in state.docsets.keys.sorted() {
            guard let versions = state.docsets[name], let latest = versions.first else { continue }
            var object: [String: JSONValue] = [
                "name": .string(name), "title": .string(latest.title), "sourceId": .string("com.kapeli.dash"),
                "revision": .string(latest.revision ?? "0"),
                "versions": .array(versions.map { .string($0.version) }),
                "size": .number(Double(latest.size)), "sha256": .string(latest.sha256),
                "feed_url": .string(url(Self.feedPath(name))),
                "urls": .array(archiveURLs(latest).map { .string($0) }),
            ]
            if let icon = latest.icon { object["icon"] = .string(icon) }
            if let icon2x = latest.icon2x { object["icon2x"] = .string(icon2x) }
            if let extra = latest.extra { object["extra"] = extra }
            if indexed.contains(latest.sha256) { object["tarix"] = .bool(true) }
            items.append(.object(object))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(JSONValue.array(items))) ?? Data("[]".utf8)) + [0x0A]
    }

    static let pathAllowed: CharacterSet = {
        var set = CharacterSet.urlPathAllowed
        set.remove(charactersIn: ";?#%")
        return set
    }()

    static func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }
}
