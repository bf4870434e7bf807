package import DocSyncSupport
import Foundation

/// `docsync.lock`, next to the config file: exactly which archive each docset was installed from, so that
/// `docsync sync --locked` reproduces the same trees on another machine. JSON, versioned by `schema`:
///
/// ```json
/// {"schema": 1, "generated_at": "2026-11-23T16:00:00Z",
///  "docsets": [{"name": "Python_3", "title": "Python 3", "version": "3.12.1", "revision": "2",
///               "archives": ["https://…/Python_3.tgz", …], "sha256": "…", "size": 123456,
///               "feed": "https://kapeli.com/feeds/Python_3.xml", "icon": "<base64>", "icon2x": "<base64>",
///               "extra": {"indexFilePath": "index.html"},
///               "zeal": {"kind": "catalog", "urls": ["…"]}}]}
/// ```
/// Readers must reject a `schema` they do not know; new optional fields may appear within a schema.
package struct LockFile: Codable, Sendable, Equatable {
    package static let currentSchema = 1
    package static let fileName = "docsync.lock"

    package struct Entry: Codable, Sendable, Equatable {
        /// The folder name (`<name>.docset`).
        package var name: String
        package var title: String?
        package var version: String
        package var revision: String?
        /// Mirrors of one archive, the one last used first.
        package var archives: [String]
        /// The archive's SHA-256, lowercase hex: enforced by `sync --locked` whatever the feed says.
        package var sha256: String
        /// The archive's size in bytes.
        package var size: Int64
        /// The feed or catalogue feed it came from (Zeal's `feed_url`).
        package var feed: String?
        /// What the catalogue added at install (base64 icons, Zeal's `extra`), so a locked install is identical.
        package var icon: String? = nil
        package var icon2x: String? = nil
        package var extra: JSONValue? = nil
        /// How the docset arrived in Zeal's terms, so the locked install writes the same `meta.json` (absent in
        /// locks written before it: a catalogue install without `feed_url`).
        package var zeal: ZealArrival? = nil

        package init(
            name: String, title: String? = nil, version: String, revision: String? = nil, archives: [String],
            sha256: String, size: Int64, feed: String? = nil
        ) {
            self.name = name
            self.title = title
            self.version = version
            self.revision = revision
            self.archives = archives
            self.sha256 = sha256
            self.size = size
            self.feed = feed
        }
    }

    package var schema: Int
    package var generatedAt: Date
    package var docsets: [Entry]

    enum CodingKeys: String, CodingKey {
        case schema, docsets
        case generatedAt = "generated_at"
    }

    package init(generatedAt: Date = Date(), docsets: [Entry]) {
        schema = Self.currentSchema
        self.generatedAt = generatedAt
        self.docsets = docsets.sorted { $0.name < $1.name }
    }

    /// `docsync.lock` in the config file's folder.
    package static func path(configFile: String) -> String {
        let directory = (configFile as NSString).deletingLastPathComponent
        return directory.isEmpty ? fileName : "\(directory)/\(fileName)"
    }

    /// A problem with a lock file, naming it.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package let path: String
        package let reason: String
        package var description: String { "\(path): \(reason)" }
    }

    package static func load(_ path: String) throws(Failure) -> LockFile {
        guard let data = (try? RegularFile.read(path: path, limit: 256 << 20)).flatMap({ $0 }).map({ Data($0) }) else {
            throw Failure(path: path, reason: "cannot read the lock file (run `docsync lock` first)")
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let lock: LockFile
        do { lock = try decoder.decode(LockFile.self, from: data) } catch {
            throw Failure(path: path, reason: "not a docsync lock file: \(error)")
        }
        guard lock.schema == currentSchema else {
            throw Failure(
                path: path, reason: "schema \(lock.schema) is not supported (this docsync reads \(currentSchema))")
        }
        for entry in lock.docsets where entry.sha256.count != 64 || entry.archives.isEmpty {
            throw Failure(path: path, reason: "\(entry.name): needs a 64-digit sha256 and at least one archive URL")
        }
        return lock
    }

    package func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return ((try? encoder.encode(self)) ?? Data()) + Data("\n".utf8)
    }

    package func save(_ path: String) throws { try encoded().write(to: URL(fileURLWithPath: path), options: .atomic) }
}
