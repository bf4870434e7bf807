import DocSyncSupport
import Foundation

/// What one host knows about an installed version and `meta.json` must not hold (it would make two machines'
/// trees differ): when it was installed, the URL it was downloaded from, the feed or catalogue it came from
/// (possibly a local path), and the archive URLs in the order this host tries them (learned mirror order).
/// Stored beside the tree, never inside it: `<root>/.docsync/installs/<NAME@ID>` (JSON, `"schema": 1`), written
/// before the version is published, dropped with it.
struct HostRecord: Codable, Equatable {
    static let directoryName = "installs"
    static let currentSchema = 1

    var schema = Self.currentSchema
    var installedAt: String
    var sourceURL: String?
    /// Where docsync found it: a feed URL or path, `catalog:<source>/<name>`, or the lock; nil for a local archive.
    var feed: String?
    /// Every archive URL, in this host's order.
    var urls: [String]

    enum CodingKeys: String, CodingKey {
        case schema, feed, urls
        case installedAt = "installed_at"
        case sourceURL = "source_url"
    }

    func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(self)) ?? Data("{}".utf8)) + [UInt8(ascii: "\n")]
    }

    /// The record in `bytes` (nil: not one, or another schema): read in one pass (`JSONParser`, every installed
    /// docset's on every run), or by `JSONDecoder` when anything in it is unexpected (the same verdict).
    static func decode(_ bytes: [UInt8]) -> HostRecord? {
        guard let record = decodedInOnePass(bytes) ?? decodedByFoundation(bytes), record.schema == currentSchema
        else { return nil }
        return record
    }

    /// The record `bytes` hold, read by `JSONParser`; nil for anything unexpected (any schema is returned).
    static func decodedInOnePass(_ bytes: [UInt8]) -> HostRecord? {
        (try? JSONParser.parse(bytes)).flatMap { try? HostRecord(json: $0) }
    }

    /// The `Codable` decoding (the reference the fast read is tested against).
    static func decodedByFoundation(_ bytes: [UInt8]) -> HostRecord? {
        try? JSONDecoder().decode(HostRecord.self, from: Data(bytes))
    }
}

extension HostRecord {
    /// The record a parsed value holds; a mismatch for a member missing or of another type.
    fileprivate init(json value: JSONValue) throws(JSONObjectReader.Mismatch) {
        guard let object = JSONObjectReader(value) else { throw .init(key: "") }
        schema = Int(try object.int64("schema"))
        installedAt = try object.string("installed_at")
        sourceURL = try object.optionalString("source_url")
        feed = try object.optionalString("feed")
        guard let urls = try object.optionalStrings("urls") else { throw .init(key: "urls") }
        self.urls = urls
    }
}

/// `<root>/.docsync/installs/<NAME@ID>`: each version's `HostRecord`.
extension VersionStore {
    func hostRecords() throws(InstallError) -> DirectoryHandle {
        try state.directory(HostRecord.directoryName, create: true)
    }

    /// Writes the record of `version` before it is published: under a temporary name, then renamed, so a crash
    /// never leaves half a record; no fsync of its own (as the manifest): publish's `syncfs`, on the same file
    /// system, makes it durable with the tree. A leftover temporary is no version's record: dropped by recovery.
    func recordHost(_ record: HostRecord, for version: String) throws(InstallError) {
        let records = try hostRecords()
        let temporary = "\(version).tmp"
        try records.writeFile(temporary, record.encoded())
        try records.rename(temporary, to: records, as: version)
    }

    func dropHostRecord(_ version: String) { try? hostRecords().unlink(version) }

    /// Records whose version is gone (a crash between a version's deletion and its record's).
    func dropOrphanedHostRecords() throws(InstallError) {
        for entry in try hostRecords().entries() where try versions.status(entry.name) == nil {
            try hostRecords().unlink(entry.name)
        }
    }
}
