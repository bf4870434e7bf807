@testable import DocSyncIndex
@testable import DocSyncInstall
import DocSyncSupport
import Testing
import TestSupport

/// The content record and the content digest are built without a per-line object (`ContentLines`, a streamed
/// digest) and stay byte-identical to the earlier builders, kept here as references: records and summaries already
/// on disk are compared with new ones.
@Suite(.timeLimit(.minutes(5))) struct ContentRecordBytesTests {
    /// The record as `VersionContent.encoded()` built it before: one array per line, sorted, repeats dropped.
    static func referenceRecord(_ content: VersionContent) -> [UInt8] {
        var pageLines = content.pages.map { Array(VersionContent.pageLine(path: $0.path, sha256: $0.sha256).utf8) }
        let key = VersionContent.pageKeyOffset
        pageLines.sort { $0[key...].lexicographicallyPrecedes($1[key...]) }
        var entryLines = content.entries.map { Array($0.line.utf8) }
        entryLines.sort { $0.lexicographicallyPrecedes($1) }
        var out = Array("\(VersionContent.magic)\n".utf8)
        for lines in [pageLines, entryLines] {
            var previous: [UInt8]?
            for line in lines where line != previous {
                out += line + [0x0A]
                previous = line
            }
        }
        return out
    }

    /// The digest as `contentDigest` computed it before: a copy without meta.json, encoded whole, hashed.
    static func referenceDigest(_ manifest: TreeManifest) -> String {
        var copy = manifest
        copy.entries[DocsetMetadata.fileName] = nil
        return SHA256.hash(copy.encoded()).description
    }

    static let names = ["a.html", "b/c.html", "tab\tx.html", "100%.html", "é.html", "e\u{301}.html", "Z.html", "a"]

    /// Repeated entries, pages in any order, escaped text, an empty section.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8])
    func recordBytesMatchTheReference(seed: UInt64) {
        var random = TestRandom(seed: seed)
        var pages: [VersionContent.Page] = []
        var entries: [VersionContent.Entry] = []
        for _ in 0..<Int.random(in: 0...40, using: &random) {
            let name = Self.names.randomElement(using: &random)! + "\(Int.random(in: 0...5, using: &random))"
            let digest = Bool.random(using: &random) ? "unreadable" : String(repeating: "ab", count: 32)
            // A page path is unique in a version (the old sort left equal keys in no set order).
            if !pages.contains(where: { $0.path == name }) { pages.append(.init(path: name, sha256: digest)) }
            entries.append(
                .init(
                    name: Self.names.randomElement(using: &random)!, type: "Function", rawType: "func", page: name,
                    fragment: Bool.random(using: &random) ? nil : "f"))
        }
        let content = VersionContent(pages: pages, entries: entries)
        #expect(content.encoded() == Self.referenceRecord(content), "seed \(seed)")
    }

    /// An entry line made from the entry's bytes (the install's content record: no String per field) is the line
    /// made from its Strings whenever the bytes path takes it, and it declines every line that needs escaping or
    /// holds non-ASCII bytes: seeded random fields with tabs, `%`, newlines, DEL, UTF-8 and invalid UTF-8.
    @Test func entryLinesFromBytesMatchTheStrings() {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let pieces: [[UInt8]] = [
            Array("a".utf8), Array("Foo.bar".utf8), Array(" ".utf8), Array("%".utf8), [0x09], [0x0A], [0x7F],
            Array("é".utf8), [0xFF], Array("#x".utf8), [],
        ]
        var taken = 0
        for _ in 0..<2000 {
            func field() -> [UInt8] {
                (0..<Int.random(in: 0...3, using: &random)).flatMap { _ in
                    Bool.random(using: &random) ? pieces[0] : pieces.randomElement(using: &random)!
                }
            }
            let (name, page, fragment) = (field(), field(), Bool.random(using: &random) ? nil : field())
            let type = ["Function", "Type%", "Méthode", "A\tB"].randomElement(using: &random)!
            let expected = VersionContent.Entry(
                name: String(decoding: name, as: UTF8.self), type: type, rawType: type + "s",
                page: String(decoding: page, as: UTF8.self),
                fragment: fragment.map { String(decoding: $0, as: UTF8.self) }
            ).line
            var line: [UInt8] = []
            let made = name.withUnsafeBufferPointer { name in
                page.withUnsafeBufferPointer { page in
                    (fragment ?? []).withUnsafeBufferPointer { fragmentBytes in
                        let bytes = EntryBytes(
                            name: name, type: type, rawType: type + "s", page: page,
                            fragment: fragment == nil ? nil : fragmentBytes, url: page)
                        return VersionContent.Entry.line(bytes, into: &line)
                    }
                }
            }
            let plain = (name + page + (fragment ?? [])).allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != 0x25 }
            #expect(made == plain, "seed \(random.seed)")
            if made {
                taken += 1
                #expect(line == Array(expected.utf8), "seed \(random.seed)")
            }
        }
        #expect(taken > 100, "seed \(random.seed)")
    }

    @Test func digestMatchesTheReference() {
        var manifest = TreeManifest()
        #expect(manifest.contentDigest == Self.referenceDigest(manifest))
        for index in 0..<3000 {  // more than one 64 KiB piece
            let name = Self.names[index % Self.names.count] + "-\(index)"
            manifest.entries["Contents/Resources/Documents/\(name)"] = .file(
                size: Int64(index), sha256: String(repeating: "cd", count: 32))
            manifest.entries["dir \(index % 7)"] = .directory
            manifest.entries["link \(index % 5)"] = .symlink(target: name)
        }
        manifest.entries[DocsetMetadata.fileName] = .file(size: 9, sha256: String(repeating: "ef", count: 32))
        #expect(manifest.encoded().count > 64 << 10)
        #expect(manifest.contentDigest == Self.referenceDigest(manifest))
    }
}
