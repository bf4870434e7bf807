import DocSyncSupport
import Foundation

/// `meta.json` at the docset root, in Zeal's format, with exactly the members Zeal's own `DocsetMetadata::save`
/// writes for the way the docset arrived (`ZealArrival`): `name`, `title`, `version`, `revision` (a string, only
/// when > 0), `feed_url`, `urls`, `extra`. A pure function of what was installed: nothing host-specific (install
/// time, the mirror used, a learned mirror order, local paths) is in it — those are in the version's `HostRecord`
/// (`<root>/.docsync/installs/<NAME@ID>`), so two machines installing one lock get byte-identical trees.
///
/// docsync's own record lives in `extra.docsync`, where Zeal ignores it: `{"identifier", "version", "revision",
/// "arrival", "archive_sha256", "archive_size", "unpacked_bytes", "file_count", "entry_updated" (the feed entry's
/// `updated`, RFC 3339), "prepared" (changes made to the docset at install, see `TreePreparation`)}`. Installs made
/// before this also have `installed_at`, `source_url` and `origin` there (read back when no host record exists).
/// A catalogue's `extra` members (`indexFilePath`, …) sit beside `docsync` in `extra`.
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
        /// The revision docsync compares (Zeal's `revision` member is written only when > 0, and never for a Dash
        /// feed, whose `version` carries it).
        var revision: String? = nil
        /// How it arrived (`ZealArrival.Kind`), so a lock or a fleet mirror's manifest reproduces this file.
        var arrival: ZealArrival.Kind? = nil
        var archiveSHA256: String?
        var archiveSize: Int64
        var unpackedBytes: Int64
        var fileCount: Int
        var entryUpdated: String? = nil
        /// What docsync changed in the docset at install time (`TreePreparation`), e.g. `["wal-checkpoint",
        /// "zeal-index"]`; nil when nothing was run.
        var prepared: [String]? = nil
        /// Written by installs before the host record existed; read back only (see `HostRecord`).
        var installedAt: String? = nil
        var sourceURL: String? = nil
        var origin: String? = nil
        /// `tarix` for the tarix layout (nil: extracted).
        var layout: String? = nil
        /// The tarix layout: SHA-256 of `Contents/Resources/tarix.tgz` (the publisher's bytes when they were indexed
        /// as they are, else the re-encoded archive's; `archive_sha256` always names the publisher's).
        var tarixSHA256: String? = nil
        /// The tarix layout: `indexed` or `reencoded`.
        var tarixMode: String? = nil
        /// The tarix layout: `publisher` (a publisher's index, checked in full) or `built`.
        var tarixIndex: String? = nil

        enum CodingKeys: String, CodingKey {
            case identifier, version, revision, arrival
            case archiveSHA256 = "archive_sha256"
            case archiveSize = "archive_size"
            case unpackedBytes = "unpacked_bytes"
            case fileCount = "file_count"
            case installedAt = "installed_at"
            case sourceURL = "source_url"
            case entryUpdated = "entry_updated"
            case origin
            case prepared, layout
            case tarixSHA256 = "tarix_sha256"
            case tarixMode = "tarix_mode"
            case tarixIndex = "tarix_index"
        }
    }

    enum CodingKeys: String, CodingKey {
        case name, title, version, revision, urls, extra
        case feedURL = "feed_url"
    }

    static let fileName = "meta.json"

    /// What Zeal would have written for `request` (its `arrival`), plus docsync's `record`.
    init(request: InstallRequest, record: Record) {
        let arrival = request.arrival
        name = request.name
        let version = request.version?.isEmpty == false ? request.version : nil
        let trimmed = request.revision?.trimmingCharacters(in: .whitespaces)
        let revision = trimmed?.isEmpty == false ? trimmed : nil
        switch arrival.kind {
        case .dashFeed:
            // Zeal's `fromDashFeed`: the title is the name with `_` as spaces, the version the raw `<version>`.
            title = request.name.replacingOccurrences(of: "_", with: " ")
            self.version = revision.map { "\(version ?? "")/\($0)" } ?? version
            self.revision = nil
        case .atomFeed:
            title = request.title ?? request.name
            self.version = version
            self.revision = nil
        case .catalog, .file:
            title = request.title ?? request.name
            self.version = version
            // Zeal writes the revision only when it is > 0 (`QString::toInt`).
            self.revision = revision.flatMap { Int($0).map { $0 > 0 } == true ? $0 : nil }
        }
        // Credentials never reach meta.json (README, Security).
        feedURL = arrival.kind == .atomFeed ? nil : arrival.feedURL?.redactingCredentials
        let urls = arrival.kind == .atomFeed ? [] : arrival.urls.map(\.redactingCredentials)
        self.urls = urls.isEmpty ? nil : urls
        var record = record
        record.version = version
        record.revision = revision
        record.arrival = arrival.kind
        extra = Extra(docsync: record, catalog: request.extra)
    }

    func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(self)) ?? Data("{}".utf8)) + [UInt8(ascii: "\n")]
    }

    static func timestamp(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }

    /// The date of a `timestamp` as ``timestamp(_:)`` writes it (`2026-01-31T12:00:00Z`: parsed with the value type
    /// `Date.ISO8601FormatStyle`, about 100 times cheaper than creating an `ISO8601DateFormatter`, which was a quarter
    /// of a no-op sync's CPU at 1,000 docsets), or any other form `ISO8601DateFormatter` reads (parsed by it, as
    /// before).
    static func date(_ timestamp: String) -> Date? {
        if timestamp.utf8.count == 20, timestamp.utf8.last == UInt8(ascii: "Z"),
            let date = try? Date(timestamp, strategy: Date.ISO8601FormatStyle())
        {
            return date
        }
        return ISO8601DateFormatter().date(from: timestamp)
    }
}
