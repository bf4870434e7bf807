import DocSync
import Foundation
import GRDB
import TestSupport
import Testing

@testable import DocSyncIndex

/// The byte-level fast path of `entries` (`EntryBytesResolver`, `EntryRowReader` over raw SQLite columns) gives
/// exactly what the slow path gives (`EntryLocation` + `EntryResolver` over GRDB `Row` values), for generated
/// locations mixing the characters that matter: non-ASCII, spaces, `%` (valid, invalid and lone escapes), `#`,
/// `<dash_entry_…>` markup, leading `/`, `apple_ref` / `dash_ref` anchors, online pages.
@Suite(.timeLimit(.minutes(10))) struct EntryBytesResolverTests {
    static let layouts: [DocsetLayout] = [
        .dash,
        DocsetLayout(documents: .absent, documentation: .directory),
        DocsetLayout(documents: .directory, documentation: .directory, documentsDocumentation: .link),
        DocsetLayout(documents: .link, documentation: .directory),
        DocsetLayout(documents: .directory, documentation: .directory, documentsDocumentation: .directory),
    ]

    static let pieces = [
        "a", "Z", "page", ".html", "/", "//", "#", "##", " ", "%", "%20", "%2", "%zz", "%C3%A9", "%FF", "%3A", "%25",
        "é", "日本", "\u{301}", "<dash_entry_name=x>", "<dash_entry_originalName=std::vector>", "<dash_entry_", "<b>",
        ">", "//apple_ref/cpp/Function/", "//dash_ref/Method/", "http://", "HTTPS://", "h", "Documentation/", "?",
        "&", "+", "=", ":", "@", "~", "\"", "\\", "\t", "\u{7F}", "[", "]", "{", "}", "|", "^", "`", "'",
    ]

    static func text(_ random: inout TestRandom, ascii: Bool) -> String {
        var out = ""
        for _ in 0..<Int.random(in: 0...8, using: &random) {
            var piece = pieces.randomElement(using: &random)!
            while ascii && !piece.utf8.allSatisfy({ $0 < 0x80 }) { piece = pieces.randomElement(using: &random)! }
            out += piece
        }
        return out
    }

    /// What the slow path gives for a raw location.
    static func slow(_ rawPath: String, _ rawFragment: String?, _ layout: DocsetLayout, prefix: String)
        -> EntryBytesResolver.Output
    {
        let resolved = EntryResolver.resolve(rawPath: rawPath, rawFragment: rawFragment, layout: layout)
        return .init(
            page: resolved.page, fragment: resolved.fragment,
            urlString: resolved.urlString(encodedDocsetPrefix: prefix))
    }

    @Test func fastPathEqualsSlowPath() {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let prefix = EntryResolver.encodedPrefix(docsetPath: "/docs/.docsync/versions/A b@1/A.docset")
        var fast = 0
        var declined = 0
        for layout in Self.layouts {
            let resolver = EntryBytesResolver(layout: layout, encodedDocsetPrefix: prefix)
            for _ in 0..<20_000 {
                let ascii = Bool.random(using: &random)
                let path = Self.text(&random, ascii: ascii)
                let fragment: String? =
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: nil
                    case 1: ""
                    default: Self.text(&random, ascii: ascii)
                    }
                let expected = Self.slow(path, fragment, layout, prefix: prefix)
                let got = Array(path.utf8).withUnsafeBufferPointer { path in
                    if let fragment {
                        Array(fragment.utf8).withUnsafeBufferPointer { resolver.resolve(path: path, fragment: $0) }
                    } else {
                        resolver.resolve(path: path, fragment: nil)
                    }
                }
                if let got {
                    fast += 1
                    #expect(
                        got == expected,
                        "seed \(random.seed): \(String(reflecting: path)) \(String(reflecting: fragment)) \(layout)")
                } else {
                    declined += 1
                    // Declined only for non-ASCII or online locations.
                    let online = EntryLocation(rawPath: path, rawFragment: fragment).path.lowercased()
                    #expect(
                        !(path + (fragment ?? "")).utf8.allSatisfy { $0 < 0x80 } || online.hasPrefix("http://")
                            || online.hasPrefix("https://"),
                        "seed \(random.seed): declined \(String(reflecting: path)) \(String(reflecting: fragment))")
                }
            }
        }
        #expect(fast > 40_000, "seed \(random.seed)")
        #expect(declined > 10_000, "seed \(random.seed)")
    }

    /// `GRDB`'s reading of a column as text, as `SourceIndex` read rows before it stepped statements itself.
    static func grdbText(_ row: Row, _ index: Int) -> String? {
        let value: DatabaseValue = row[index]
        let string: String
        switch value.storage {
        case .null: return nil
        case .int64(let n): string = String(n)
        case .double(let d): string = String(d)
        case .string(let s): string = s
        case .blob(let data): string = String(decoding: data, as: UTF8.self)
        }
        guard string.utf8.count > SourceIndex.maxFieldBytes else { return string }
        return String(decoding: string.utf8.prefix(SourceIndex.maxFieldBytes), as: UTF8.self)
    }

    /// A column value of any storage class: text (ASCII or not, with NUL bytes, longer than the field limit),
    /// blobs (invalid UTF-8 too), numbers and NULL.
    static func value(_ random: inout TestRandom, type: Bool = false) -> DatabaseValue {
        switch Int.random(in: 0..<20, using: &random) {
        case 0: return .null
        case 1: return Int64.random(in: -1000...1000, using: &random).databaseValue
        case 2: return Double.random(in: -1e30...1e30, using: &random).databaseValue
        case 3:
            var bytes = Array(text(&random, ascii: false).utf8)
            if Bool.random(using: &random) { bytes.insert(0xFF, at: Int.random(in: 0...bytes.count, using: &random)) }
            return Data(bytes).databaseValue
        case 4: return (text(&random, ascii: true) + "\u{0}" + text(&random, ascii: true)).databaseValue
        case 5:
            let long = String(repeating: "a%20/", count: 1000) + text(&random, ascii: Bool.random(using: &random))
            return long.databaseValue
        case 6: return String(repeating: "é", count: 2100).databaseValue
        default:
            if type { return ["func", "clm", "Class", "Public Member Functions", ""].randomElement(using: &random)!.databaseValue }
            return text(&random, ascii: Int.random(in: 0..<4, using: &random) != 0).databaseValue
        }
    }
}

/// The stream over real indexes (in `EntriesStreamTests`, serialized: `stoppingEarlyStopsTheReader` counts every
/// `docsync-entries` thread of the process, so no other in-process stream may run beside it).
extension EntriesStreamTests {
    /// Over a real index holding every storage class: the stream (raw columns, fast path) gives what GRDB `Row`
    /// values + `EntryLocation` + `EntryResolver` give, row by row, and skips the same rows.
    @Test func streamEqualsSlowPathOverEveryStorageClass() async throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let dir = try TemporaryDirectory("entries-fast-path")
        defer { dir.remove() }
        let folder = try IndexFixture.dash("Mixed", in: dir.path, [])
        let index = "\(folder)/Contents/Resources/docSet.dsidx"
        let queue = try DatabaseQueue(path: index)
        var rows: [[DatabaseValue]] = []
        for _ in 0..<5_000 { rows.append([EntryBytesResolverTests.value(&random), EntryBytesResolverTests.value(&random, type: true), EntryBytesResolverTests.value(&random)]) }
        try await queue.write { [rows] db in
            try db.execute(sql: "DROP INDEX anchor")
            for row in rows {
                try db.execute(
                    sql: "INSERT INTO searchIndex(name, type, path) VALUES (?, ?, ?)", arguments: StatementArguments(row))
            }
        }
        let prefix = EntryResolver.encodedPrefix(docsetPath: folder)
        let expected: [DocsetEntry] = try await queue.read { db in
            try Row.fetchAll(db, sql: IndexFormat.dash.entriesSQL).compactMap { row in
                guard let name = EntryBytesResolverTests.grdbText(row, 0), !name.isEmpty, let path = EntryBytesResolverTests.grdbText(row, 2) else {
                    return nil
                }
                let rawType = EntryBytesResolverTests.grdbText(row, 1) ?? ""
                let resolved = EntryResolver.resolve(
                    EntryLocation(rawPath: path, rawFragment: EntryBytesResolverTests.grdbText(row, 3)), layout: .dash)
                return DocsetEntry(
                    name: name, type: EntryType.normalise(rawType), rawType: rawType, page: resolved.page,
                    fragment: resolved.fragment, urlString: resolved.urlString(encodedDocsetPrefix: prefix))
            }
        }
        try queue.close()
        var got: [DocsetEntry] = []
        for try await entry in DocsetEntries(docset: IndexedDocset(name: "Mixed", version: nil, path: folder)) {
            got.append(entry)
        }
        #expect(got.count == expected.count, "seed \(random.seed)")
        for (a, b) in zip(got, expected) where a != b {
            Issue.record("seed \(random.seed): \(a) != \(b)")
            break
        }
        #expect(expected.count > 2_000, "seed \(random.seed)")
    }

    /// Core Data (the fragment in its own column, in WAL mode: read through a copy) and Apple's layout: the same.
    @Test func coreDataStreamEqualsSlowPath() async throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let dir = try TemporaryDirectory("entries-fast-path-cd")
        defer { dir.remove() }
        var entries: [IndexFixture.Entry] = []
        for i in 0..<3_000 {
            let ascii = Int.random(in: 0..<4, using: &random) != 0
            let path = (Bool.random(using: &random) ? "Documentation/" : "") + EntryBytesResolverTests.text(&random, ascii: ascii)
            entries.append(
                IndexFixture.Entry(
                    name: "n\(i)" + EntryBytesResolverTests.text(&random, ascii: ascii),
                    type: ["clm", "instm", "Class", "tdef"].randomElement(using: &random)!, path: path,
                    fragment: Bool.random(using: &random) ? EntryBytesResolverTests.text(&random, ascii: ascii) : nil))
        }
        let folder = try IndexFixture.coreData("Apple", in: dir.appending("docsets"), entries, wal: true)
        try FileManager.default.createDirectory(
            atPath: "\(folder)/Contents/Resources/Documentation", withIntermediateDirectories: true)
        let layout = DocsetLayout.read(docsetPath: folder)
        #expect(layout.documentation == .directory)
        let prefix = EntryResolver.encodedPrefix(docsetPath: folder)
        let scratch = dir.appending("scratch")
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        var expected: [DocsetEntry] = []
        _ = try SourceIndex.read(
            IndexedDocset(name: "Apple", version: nil, path: folder), scratchParent: scratch, maxEntries: .max
        ) { entry in
            let resolved = EntryResolver.resolve(entry.location, layout: layout)
            expected.append(
                DocsetEntry(
                    name: entry.name, type: entry.type, rawType: entry.rawType, page: resolved.page,
                    fragment: resolved.fragment, urlString: resolved.urlString(encodedDocsetPrefix: prefix)))
        }
        var got: [DocsetEntry] = []
        for try await entry in DocsetEntries(
            docset: IndexedDocset(name: "Apple", version: nil, path: folder), scratchDirectory: scratch)
        {
            got.append(entry)
        }
        #expect(got.count == entries.count, "seed \(random.seed)")
        #expect(got == expected, "seed \(random.seed)")
    }
}
