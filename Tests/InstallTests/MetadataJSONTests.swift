import DocSyncSupport
import Foundation
import TestSupport
import Testing

@testable import DocSyncInstall

/// `meta.json` and the host record, read for every installed docset on every sync, go through `JSONParser` and typed
/// reads: what docsync writes, what older installs and Zeal wrote, and files with members of unexpected types all
/// give what the `Codable` decoding gave (a value, or nil).
@Suite(.timeLimit(.minutes(5))) struct MetadataJSONTests {
    private static let record = """
        "docsync": {"identifier": "org.example", "version": "1.2", "revision": "3", "arrival": "dash-feed",
         "archive_sha256": "ab", "archive_size": 1234, "unpacked_bytes": 5678, "file_count": 9,
         "entry_updated": "2026-01-02T03:04:05Z", "prepared": ["wal-checkpoint", "zeal-index"], "layout": "tarix",
         "tarix_sha256": "cd", "tarix_mode": "indexed", "tarix_index": "built"}
        """

    /// Every shape: docsync's own (every member), an older install's (host facts in meta.json), Zeal's, catalogue
    /// members beside docsync's, escapes and non-ASCII text; then members of other types and broken files.
    static let texts: [String] = [
        "{\"name\": \"A\", \"title\": \"A\", \"version\": \"1.2/3\", \"extra\": {\(record)}}",
        """
        {"name": "Old", "title": "Old", "version": "1", "revision": "2", "feed_url": "https://example.org/Old.xml",
         "urls": ["https://example.org/Old.tgz"],
         "extra": {"docsync": {"version": "1", "archive_size": 10, "unpacked_bytes": 20, "file_count": 3,
          "installed_at": "2026-01-02T03:04:05Z", "source_url": "https://example.org/Old.tgz", "origin": "x"}}}
        """,
        "{\"name\": \"Zeal\", \"title\": \"Zeal's\", \"version\": \"9\", \"revision\": \"4\", \"feed_url\": null}",
        """
        {"name": "C", "title": "C \\u00e9 \\"q\\" 日本", "extra": {"indexFilePath": "index.html",
         "keywords": ["py", 3, null, {"x": [1.5e3, true]}], \(record)}}
        """,
        "{\"name\": \"N\", \"title\": \"N\", \"extra\": {\"docsync\": null}, \"urls\": []}",
        "{\"name\": \"N\", \"title\": \"N\", \"extra\": null}",
        // Members of other types, or missing: nil from both.
        "{\"name\": \"R\", \"title\": \"R\", \"revision\": 4}",
        "{\"name\": \"R\", \"title\": 1}",
        "{\"name\": \"R\"}",
        "{\"name\": \"R\", \"title\": \"R\", \"urls\": [\"a\", 1]}",
        "{\"name\": \"R\", \"title\": \"R\", \"urls\": \"a\"}",
        "{\"name\": \"R\", \"title\": \"R\", \"extra\": []}",
        "{\"name\": \"R\", \"title\": \"R\", \"extra\": {\"docsync\": 1}}",
        "{\"name\": \"R\", \"title\": \"R\", \"extra\": {\"docsync\": {\"archive_size\": \"1\", \"unpacked_bytes\": 1,"
            + " \"file_count\": 1}}}",
        "{\"name\": \"R\", \"title\": \"R\", \"extra\": {\"docsync\": {\"archive_size\": 1.5, \"unpacked_bytes\": 1,"
            + " \"file_count\": 1}}}",
        "{\"name\": \"R\", \"title\": \"R\", \"extra\": {\"docsync\": {\"archive_size\": 1, \"file_count\": 1}}}",
        "{\"name\": \"R\", \"title\": \"R\", \"extra\": {\"docsync\": {\"archive_size\": 1, \"unpacked_bytes\": 1,"
            + " \"file_count\": 1, \"arrival\": \"carrier-pigeon\"}}}",
        "{\"name\": \"R\", \"title\": \"R\", \"extra\": {\"docsync\": {\"archive_size\": 1, \"unpacked_bytes\": 1,"
            + " \"file_count\": 1, \"prepared\": \"zeal-index\"}}}",
        "[]", "", "{\"name\": \"R\", \"title\": \"R\"", "{\"name\": \"R\", \"title\": \"R\"} x", "null",
    ]

    @Test func metaJSONReadsAsTheCodableDecodingReadsIt() {
        var decoded = 0
        for text in Self.texts {
            let bytes = Array(text.utf8)
            let fast = DocsetMetadata.decode(bytes)
            #expect(fast == DocsetMetadata.decodedByFoundation(bytes), "\(text)")
            if fast != nil { decoded += 1 }
        }
        #expect(decoded == 6)  // the first six are meta.json files; the rest are not
    }

    @Test func whatDocsyncWritesReadsBack() throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        for kind in ZealArrival.Kind.allCases {
            var request = InstallRequest(name: "Doc_\(kind.rawValue)", title: "T é", version: "2.0")
            request.revision = String(Int.random(in: 0...99, using: &random))
            request.extra = [
                "keywords": .array([.string("k")]), "n": .number(Double(Int.random(in: 0...9, using: &random))),
            ]
            request.arrival = ZealArrival(kind: kind, feedURL: "https://example.org/f.xml", urls: ["https://a/b.tgz"])
            var record = DocsetMetadata.Record(
                identifier: "id", version: nil, archiveSHA256: "00",
                archiveSize: Int64.random(in: 0...1 << 40, using: &random),
                unpackedBytes: 7, fileCount: 3)
            record.prepared = ["zeal-index"]
            let meta = DocsetMetadata(request: request, record: record)
            let bytes = meta.encoded()
            #expect((try? DocsetMetadata(json: JSONParser.parse(bytes))) == meta, "\(kind), seed \(random.seed)")
            #expect(DocsetMetadata.decode(bytes) == meta, "\(kind), seed \(random.seed)")
            #expect(DocsetMetadata.decodedByFoundation(bytes) == meta, "\(kind), seed \(random.seed)")
        }
    }

    @Test func hostRecordsReadAsTheCodableDecodingReadsThem() {
        let record = HostRecord(
            installedAt: "2026-01-02T03:04:05Z", sourceURL: "https://a/b.tgz", feed: "catalog:zeal/A",
            urls: ["https://a/b.tgz", "https://m/b.tgz"])
        #expect(HostRecord.decodedInOnePass(record.encoded()) == record)  // what docsync writes takes the fast path
        #expect(HostRecord.decode(record.encoded()) == record)
        for text in [
            "{\"schema\": 1, \"installed_at\": \"x\", \"urls\": []}",
            "{\"schema\": 1, \"installed_at\": \"x\", \"urls\": [], \"feed\": null, \"source_url\": \"s\"}",
            "{\"schema\": 2, \"installed_at\": \"x\", \"urls\": []}", "{\"installed_at\": \"x\", \"urls\": []}",
            "{\"schema\": 1, \"urls\": []}", "{\"schema\": 1, \"installed_at\": \"x\"}",
            "{\"schema\": \"1\", \"installed_at\": \"x\", \"urls\": []}",
            "{\"schema\": 1, \"installed_at\": 5, \"urls\": []}",
            "{\"schema\": 1, \"installed_at\": \"x\", \"urls\": [2]}", "[]", "",
        ] {
            let bytes = Array(text.utf8)
            let expected = HostRecord.decodedByFoundation(bytes).flatMap { $0.schema == 1 ? $0 : nil }
            #expect(HostRecord.decode(bytes) == expected, "\(text)")
        }
    }
}
