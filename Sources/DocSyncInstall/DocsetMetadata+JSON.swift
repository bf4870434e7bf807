import DocSyncSupport
import Foundation

/// Reading `meta.json` on every run (each installed docset's, by `installedDocsets()`): one pass of ``JSONParser``
/// and typed reads of the members, several times cheaper than `JSONDecoder` into the `Codable` types (their
/// catalogue members, `JSONValue`s, each try every kind in turn). Anything the fast read does not expect (a member of
/// another type, invalid JSON) is decoded by `JSONDecoder` as before, so every file gets the same verdict.
extension DocsetMetadata {
    static func decode(_ bytes: [UInt8]) -> DocsetMetadata? {
        if let value = try? JSONParser.parse(bytes), let meta = try? DocsetMetadata(json: value) { return meta }
        return decodedByFoundation(bytes)
    }

    /// The `Codable` decoding (the reference the fast read is tested against).
    static func decodedByFoundation(_ bytes: [UInt8]) -> DocsetMetadata? {
        try? JSONDecoder().decode(DocsetMetadata.self, from: Data(bytes))
    }

    init(json value: JSONValue) throws(JSONObjectReader.Mismatch) {
        guard let object = JSONObjectReader(value) else { throw .init(key: "") }
        name = try object.string("name")
        title = try object.string("title")
        version = try object.optionalString("version")
        revision = try object.optionalString("revision")
        feedURL = try object.optionalString("feed_url")
        urls = try object.optionalStrings("urls")
        switch object.members["extra"] {
        case nil, .null?: extra = nil
        case .object(let members)?:
            let record: Record? =
                switch members["docsync"] {
                case nil, .null?: nil
                case let value?: try Record(json: value)
                }
            extra = Extra(docsync: record, catalog: members)
        default: throw .init(key: "extra")
        }
    }
}

extension DocsetMetadata.Record {
    init(json value: JSONValue) throws(JSONObjectReader.Mismatch) {
        guard let object = JSONObjectReader(value) else { throw .init(key: "docsync") }
        identifier = try object.optionalString("identifier")
        version = try object.optionalString("version")
        revision = try object.optionalString("revision")
        if let kind = try object.optionalString("arrival") {
            guard let arrival = ZealArrival.Kind(rawValue: kind) else { throw .init(key: "arrival") }
            self.arrival = arrival
        }
        archiveSHA256 = try object.optionalString("archive_sha256")
        archiveSize = try object.int64("archive_size")
        unpackedBytes = try object.int64("unpacked_bytes")
        fileCount = Int(try object.int64("file_count"))
        entryUpdated = try object.optionalString("entry_updated")
        prepared = try object.optionalStrings("prepared")
        installedAt = try object.optionalString("installed_at")
        sourceURL = try object.optionalString("source_url")
        origin = try object.optionalString("origin")
        layout = try object.optionalString("layout")
        tarixSHA256 = try object.optionalString("tarix_sha256")
        tarixMode = try object.optionalString("tarix_mode")
        tarixIndex = try object.optionalString("tarix_index")
    }
}
