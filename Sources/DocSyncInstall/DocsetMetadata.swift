import DocSyncSupport
import Foundation

/// `meta.json` at the docset root, in Zeal's format (`name`, `title`, `version`, `revision` as a string, `feed_url`,
/// `urls`, `extra`). docsync's own record lives in `extra.docsync`, where Zeal ignores it:
/// `{"identifier", "version", "source_url", "archive_sha256", "archive_size", "unpacked_bytes", "file_count",
/// "installed_at" (RFC 3339), "entry_updated" (the feed entry's `updated`, RFC 3339), "origin" (a catalogue docset
/// without a feed), "prepared" (changes made to the docset at install, see `TreePreparation`)}`. A catalogue's
/// `extra` members (`indexFilePath`, …) sit beside `docsync` in `extra`.
struct DocsetMetadata: Codable, Equatable {
    var name: String
    var title: String
    var version: String?
    var revision: String?
    var feedURL: String?
    var urls: [String]?
    var extra: Extra?

    /// Zeal's `extra` (catalogue members kept as they came) plus docsync's record under `docsync`.
    struct Extra: Codable, Equatable {
        var docsync: Record?
        var catalog: [String: JSONValue] = [:]

        init(docsync: Record?, catalog: [String: JSONValue] = [:]) {
            self.docsync = docsync
            self.catalog = catalog.filter { $0.key != "docsync" }
        }

        init(from decoder: any Decoder) throws {
            var members = try decoder.singleValueContainer().decode([String: JSONValue].self)
            members["docsync"] = nil
            catalog = members
            docsync = try decoder.container(keyedBy: RecordKey.self).decodeIfPresent(Record.self, forKey: .docsync)
        }

        func encode(to encoder: any Encoder) throws {
            var members = catalog
            if let docsync {
                let data = try JSONEncoder().encode(docsync)
                members["docsync"] = try JSONDecoder().decode(JSONValue.self, from: data)
            }
            var container = encoder.singleValueContainer()
            try container.encode(members)
        }

        private enum RecordKey: String, CodingKey { case docsync }
    }

    struct Record: Codable, Equatable {
        var identifier: String?
        var version: String?
        var sourceURL: String?
        var archiveSHA256: String?
        var archiveSize: Int64
        var unpackedBytes: Int64
        var fileCount: Int
        var installedAt: String
        var entryUpdated: String? = nil
        /// Where a docset without a feed came from (`catalog:contrib/Jest`): kept here, not in Zeal's `feed_url`,
        /// which Zeal would try to fetch as a feed.
        var origin: String? = nil
        /// What docsync changed in the docset at install time (`TreePreparation`), e.g. `["wal-checkpoint",
        /// "zeal-index"]`; nil when nothing was run.
        var prepared: [String]? = nil

        enum CodingKeys: String, CodingKey {
            case identifier, version
            case sourceURL = "source_url"
            case archiveSHA256 = "archive_sha256"
            case archiveSize = "archive_size"
            case unpackedBytes = "unpacked_bytes"
            case fileCount = "file_count"
            case installedAt = "installed_at"
            case entryUpdated = "entry_updated"
            case origin
            case prepared
        }
    }

    enum CodingKeys: String, CodingKey {
        case name, title, version, revision, urls, extra
        case feedURL = "feed_url"
    }

    static let fileName = "meta.json"

    init(request: InstallRequest, record: Record) {
        name = request.name
        title = request.title ?? request.name
        version = request.version?.isEmpty == false ? request.version : nil
        // Zeal writes the revision only when it is > 0.
        let revision = request.revision?.trimmingCharacters(in: .whitespaces)
        self.revision = revision.flatMap { $0.isEmpty || $0 == "0" ? nil : $0 }
        let origin = request.feedURL?.hasPrefix("catalog:") == true ? request.feedURL : nil
        // Credentials never reach meta.json (README, Security).
        feedURL = origin == nil ? request.feedURL?.redactingCredentials : nil
        urls = request.urls.map(\.redactingCredentials)
        var record = record
        record.origin = origin
        record.sourceURL = record.sourceURL?.redactingCredentials
        extra = Extra(docsync: record, catalog: request.extra)
    }

    func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(self)) ?? Data("{}".utf8)) + [UInt8(ascii: "\n")]
    }

    static func decode(_ data: Data) -> DocsetMetadata? { try? JSONDecoder().decode(DocsetMetadata.self, from: data) }

    static func timestamp(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }

    static func date(_ timestamp: String) -> Date? { ISO8601DateFormatter().date(from: timestamp) }
}
