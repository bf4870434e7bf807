import DocSync
import Foundation
import GRDB
import TestSupport
import Testing

@testable import DocSyncCLI

@testable import DocSyncIndex

/// `entries` of a Core Data index read through `CoreDataTables` (paths and types joined in memory) gives exactly the
/// rows, in the same order, that `IndexFormat.entriesSQL`'s four-table join gives, over indexes SQLite joins oddly:
/// files and types missing, NULL and non-integer keys, sparse primary keys, NULL / blob / NUL-holding / numeric
/// paths, and a covering index that changes SQLite's plan (then the tables must not be used).
@Suite(.timeLimit(.minutes(10))) struct CoreDataTablesTests {
    /// What `DocsetEntries` reads (`joinInMemory`), row by row, without its thread.
    static func streamed(_ docset: IndexedDocset, scratch: String) throws -> [DocsetEntry] {
        var reader = EntryRowReader(docsetPath: docset.path, layout: DocsetLayout.read(docsetPath: docset.path))
        var out: [DocsetEntry] = []
        _ = try SourceIndex.forEachRow(docset, scratchParent: scratch, maxEntries: .max, joinInMemory: true) { row in
            if let entry = reader.entry(row) { out.append(entry) }
        }
        return out
    }

    /// What the four-table join and the slow path give.
    static func expected(_ docset: IndexedDocset, scratch: String) throws -> [DocsetEntry] {
        let layout = DocsetLayout.read(docsetPath: docset.path)
        let prefix = EntryResolver.encodedPrefix(docsetPath: docset.path)
        var out: [DocsetEntry] = []
        _ = try SourceIndex.read(docset, scratchParent: scratch, maxEntries: .max) { entry in
            let resolved = EntryResolver.resolve(entry.location, layout: layout)
            out.append(
                DocsetEntry(
                    name: entry.name, type: entry.type, rawType: entry.rawType, page: resolved.page,
                    fragment: resolved.fragment, urlString: resolved.urlString(encodedDocsetPrefix: prefix)))
        }
        return out
    }

    static func usesTables(_ path: String) throws -> Bool {
        let queue = try DatabaseQueue(path: "\(path)/Contents/Resources/docSet.dsidx")
        defer { try? queue.close() }
        return try queue.read { db in CoreDataTables.load(db) != nil }
    }

    /// A Core Data docset of generated entries, then rows no Core Data store writes but an index may hold.
    static func messyDocset(_ random: inout TestRandom, in parent: String, name: String, numericPath: Bool)
        throws -> String
    {
        var entries: [IndexFixture.Entry] = []
        for i in 0..<2_000 {
            let ascii = Int.random(in: 0..<4, using: &random) != 0
            let path =
                (Bool.random(using: &random) ? "Documentation/" : "")
                + EntryBytesResolverTests.text(&random, ascii: ascii) + "\(i % 300).html"
            entries.append(
                IndexFixture.Entry(
                    name: "n\(i)" + EntryBytesResolverTests.text(&random, ascii: ascii),
                    type: ["clm", "instm", "Class", "tdef", "func"].randomElement(using: &random)!, path: path,
                    fragment: Bool.random(using: &random) ? EntryBytesResolverTests.text(&random, ascii: ascii) : nil))
        }
        let folder = try IndexFixture.coreData(name, in: parent, entries)
        let queue = try DatabaseQueue(path: "\(folder)/Contents/Resources/docSet.dsidx")
        try queue.write { db in
            // Odd files and types at sparse keys: NULL, a blob (invalid UTF-8), text with a NUL, an empty path.
            try db.execute(sql: "INSERT INTO ZFILEPATH(Z_PK, ZPATH) VALUES (900000000, NULL)")
            try db.execute(sql: "INSERT INTO ZFILEPATH(Z_PK, ZPATH) VALUES (900000001, x'61FF2E68746D6C')")
            try db.execute(sql: "INSERT INTO ZFILEPATH(Z_PK, ZPATH) VALUES (900000002, 'a.html' || char(0) || 'b')")
            try db.execute(sql: "INSERT INTO ZFILEPATH(Z_PK, ZPATH) VALUES (900000003, '')")
            if numericPath { try db.execute(sql: "INSERT INTO ZFILEPATH(Z_PK, ZPATH) VALUES (900000004, 12.5)") }
            try db.execute(sql: "INSERT INTO ZTOKENTYPE(Z_PK, ZTYPENAME) VALUES (700000000, NULL)")
            try db.execute(sql: "INSERT INTO ZTOKENTYPE(Z_PK, ZTYPENAME) VALUES (700000001, 42)")
            let files: [DatabaseValue] = [
                900_000_000.databaseValue, 900_000_001.databaseValue, 900_000_002.databaseValue,
                900_000_003.databaseValue, 900_000_004.databaseValue, 1.databaseValue, 123_456.databaseValue,
                DatabaseValue.null, "abc".databaseValue, 2.5.databaseValue, Data([1, 2]).databaseValue,
            ]
            let types: [DatabaseValue] = [
                700_000_000.databaseValue, 700_000_001.databaseValue, 1.databaseValue, 2.databaseValue,
                654_321.databaseValue, DatabaseValue.null, "x".databaseValue, 1.5.databaseValue,
            ]
            for i in 0..<3_000 {
                let meta = 5_000_000 + i
                let token = 5_000_000 + i
                let name: DatabaseValue =
                    switch Int.random(in: 0..<10, using: &random) {
                    case 0: .null
                    case 1: "".databaseValue
                    case 2: 77.databaseValue
                    default: "odd\(i)".databaseValue
                    }
                if Int.random(in: 0..<10, using: &random) != 0 {  // else the token's meta information is missing
                    try db.execute(
                        sql: "INSERT INTO ZTOKENMETAINFORMATION(Z_PK, ZTOKEN, ZFILE, ZANCHOR) VALUES (?, ?, ?, ?)",
                        arguments: [
                            meta, token, files.randomElement(using: &random)!,
                            Bool.random(using: &random) ? "a\(i)" : nil,
                        ])
                }
                // Tokens inserted at random keys: the scan order is the keys' order, not the insertion order.
                try db.execute(
                    sql: """
                        INSERT OR IGNORE INTO ZTOKEN(Z_PK, ZTOKENTYPE, ZMETAINFORMATION, ZTOKENNAME)
                          VALUES (?, ?, ?, ?)
                        """,
                    arguments: [
                        Int.random(in: 10_000...4_000_000_000, using: &random), types.randomElement(using: &random)!,
                        meta, name,
                    ])
            }
        }
        try queue.close()
        return folder
    }

    @Test func sameRowsAsTheFourTableJoin() throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let dir = try TemporaryDirectory("core-data-tables")
        defer { dir.remove() }
        let scratch = dir.appending("scratch")
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        for numericPath in [false, true] {
            let name = numericPath ? "Numeric" : "Messy"
            let folder = try Self.messyDocset(
                &random, in: dir.appending("docsets"), name: name, numericPath: numericPath)
            try FileManager.default.createDirectory(
                atPath: "\(folder)/Contents/Resources/Documentation", withIntermediateDirectories: true)
            // ZPATH is VARCHAR: SQLite stores even a number inserted there as text, so the tables are used.
            #expect(try Self.usesTables(folder), "seed \(random.seed)")
            let docset = IndexedDocset(name: name, version: nil, path: folder)
            let expected = try Self.expected(docset, scratch: scratch)
            let got = try Self.streamed(docset, scratch: scratch)
            #expect(expected.count > 2_000, "seed \(random.seed)")
            #expect(got.count == expected.count, "seed \(random.seed)")
            for (index, (a, b)) in zip(got, expected).enumerated() where a != b {
                Issue.record("seed \(random.seed): entry \(index): \(a) != \(b)")
                break
            }
        }
    }

    /// An index whose plan does not scan `ZTOKEN` by its keys (a covering index orders the rows by name): the
    /// tables are not used, and the rows are the join's.
    @Test func anotherPlanReadsTheJoin() throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let dir = try TemporaryDirectory("core-data-tables-plan")
        defer { dir.remove() }
        let scratch = dir.appending("scratch")
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let folder = try Self.messyDocset(&random, in: dir.appending("docsets"), name: "Plan", numericPath: false)
        #expect(try Self.usesTables(folder), "seed \(random.seed)")
        let queue = try DatabaseQueue(path: "\(folder)/Contents/Resources/docSet.dsidx")
        try queue.write { db in
            try db.execute(sql: "CREATE INDEX byName ON ZTOKEN (ZTOKENNAME, ZTOKENTYPE, ZMETAINFORMATION)")
        }
        try queue.close()
        #expect(try !Self.usesTables(folder), "seed \(random.seed)")
        let docset = IndexedDocset(name: "Plan", version: nil, path: folder)
        #expect(try Self.streamed(docset, scratch: scratch) == Self.expected(docset, scratch: scratch))
    }
}

/// The stream's bytes (`DocsetEntries.Iterator.nextBytes`, what `docsync entries --json` writes) against its values
/// (in `EntriesStreamTests`, serialized: no other in-process stream may run beside its thread count).
extension EntriesStreamTests {
    /// Seeded names, types and paths with what JSON and URLs must escape — non-ASCII, spaces, `%`, `#`, quotes,
    /// backslashes, control characters — in both formats: the JSON Lines written from bytes are byte for byte
    /// those written from `DocsetEntry` values, entry by entry.
    @Test func jsonFromBytesEqualsJSONFromEntries() async throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let dir = try TemporaryDirectory("entries-bytes")
        defer { dir.remove() }
        let pieces = EntryBytesResolverTests.pieces + ["\u{0}", "\u{1}", "\n", "\r", "\u{1F}", "\"q\"", "é#", "% "]
        func text() -> String {
            var out = ""
            for _ in 0..<Int.random(in: 1...6, using: &random) { out += pieces.randomElement(using: &random)! }
            return out
        }
        var entries: [IndexFixture.Entry] = []
        for i in 0..<3_000 {
            entries.append(
                IndexFixture.Entry(
                    name: "\(i)" + text(), type: ["func", "clm", "Class", "Public Member Functions", text()][i % 5],
                    path: text() + (Bool.random(using: &random) ? "#" + text() : ""),
                    fragment: Bool.random(using: &random) ? text() : nil))
        }
        let folders = [
            try IndexFixture.dash("Bytes", in: dir.appending("docsets"), entries),
            try IndexFixture.coreData("BytesCD", in: dir.appending("docsets"), entries),
        ]
        for folder in folders {
            let docset = DocsetEntries(
                docset: IndexedDocset(name: "Bytes", version: nil, path: folder), batchSize: 100)
            var expected: [[UInt8]] = []
            for try await entry in docset {
                var line: [UInt8] = []
                EntriesCommand.appendJSON(entry, to: &line)
                expected.append(line)
            }
            var got: [[UInt8]] = []
            var iterator = docset.makeAsyncIterator()
            while let entry = try await iterator.nextBytes() {
                var line: [UInt8] = []
                EntriesCommand.appendJSON(entry, to: &line)
                got.append(line)
            }
            #expect(expected.count > 2_000, "seed \(random.seed)")
            #expect(got.count == expected.count, "seed \(random.seed)")
            for (index, (a, b)) in zip(got, expected).enumerated() where a != b {
                let (got, expected) = (String(decoding: a, as: UTF8.self), String(decoding: b, as: UTF8.self))
                Issue.record("seed \(random.seed): entry \(index): \(got) != \(expected)")
                break
            }
        }
    }
}
