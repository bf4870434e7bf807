import DocSyncSupport
import Foundation
import Testing
import TestSupport

@testable import DocSyncInstall

#if canImport(Glibc)
    import Glibc
#endif

/// The manifest read in bounded memory (`SortedManifest`: a spilling external sort instead of a dictionary) gives
/// byte for byte the content digest and the content record's page lines that the dictionary (`TreeManifest`) gives:
/// a changed digest would make every installed docset look updated. Awkward paths (canonically equivalent Unicode,
/// invalid UTF-8, escapes, the empty path), format 2's later lines and removals, and runs small enough to spill.
@Suite(.timeLimit(.minutes(5))) struct SortedManifestTests {
    /// Names in NFC (precomposed "é", CJK, invalid UTF-8 read as U+FFFD). Not decomposed ones ("e\u{301}") nor the
    /// Kelvin sign (U+212A, equal to "K"): Swift's String `<` is not a consistent order on them (the 6.x stdlib
    /// says neither "…/sub/e\u{301}.html" < "…/sub/\u{E9}.html2" nor the reverse, and orders "\u{212A}" after "K0"
    /// while "K" goes before it), so a dictionary's sorted keys, and the old digest with them, depended on the
    /// process's hash seed there; no order reproduces that.
    static let names = [
        "a.html", "b/c.html", "a b.html", "100%.html", "tab\t.html", "é.html", "K", "Z.html", "a", "日本語.html",
        "%FF", "x%C3", "",
    ]
    static let folders = [
        "Contents/Resources/Documents/", "Contents/Resources/Documentation/", "Contents/", "",
        "Contents/Resources/Documents/sub/",
    ]

    /// The page lines as the dictionary gave them (`VersionContent.pageLines(of:)` before the streamed reading).
    static func referencePages(_ manifest: TreeManifest) -> [UInt8] {
        let documents = "Contents/Resources/Documents"
        let documentation = "Contents/Resources/Documentation"
        var prefixes = [(documents + "/", "")]
        if manifest.entries[documents] == .symlink(target: "Documentation") {
            prefixes.append((documentation + "/", ""))
        } else if manifest.entries[documents + "/Documentation"] == .symlink(target: "../Documentation") {
            prefixes.append((documentation + "/", "Documentation/"))
        }
        let lines = ContentLines(keyOffset: VersionContent.pageKeyOffset)
        for (path, entry) in manifest.entries {
            guard case .file(_, let sha256) = entry else { continue }
            for (prefix, page) in prefixes where path.hasPrefix(prefix) {
                let line = VersionContent.pageLine(path: page + path.dropFirst(prefix.count), sha256: sha256)
                try? lines.append(line.utf8)
            }
        }
        return Self.bytes(of: lines)
    }

    static func bytes(of lines: ContentLines) -> [UInt8] {
        var out: [UInt8] = []
        let writer = ContentWriter { out += $0 }
        try? lines.write(sortedTo: writer)
        try? writer.finish()
        return out
    }

    /// A random manifest text: escaped paths (raw bytes, some not UTF-8), repeated paths, removals in format 2.
    static func randomText(_ random: inout TestRandom, lines count: Int, ordered: Bool) -> [UInt8] {
        var out = Array((ordered ? TreeManifest.header2 : TreeManifest.header).utf8) + [0x0A]
        func path() -> [UInt8] {
            let name = names.randomElement(using: &random)!
            var raw = Array((folders.randomElement(using: &random)! + name).utf8)
            if name.hasPrefix("%"), let value = UInt8(name.dropFirst(), radix: 16) { raw = [value] }  // invalid UTF-8
            if name.hasPrefix("x%") { raw = Array("Contents/Resources/Documents/x".utf8) + [0xC3] }
            raw += Array("\(Int.random(in: 0...3, using: &random))".utf8).filter { _ in Bool.random(using: &random) }
            var encoded: [UInt8] = []
            raw.withUnsafeBytes { ManifestLine.appendEncoded($0, to: &encoded) }
            return encoded
        }
        for _ in 0..<count {
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<6:
                let digest = String(repeating: Bool.random(using: &random) ? "ab" : "0c", count: 32)
                out += Array("F \(Int.random(in: 0...99, using: &random)) \(digest) ".utf8) + path()
            case 6: out += Array("D ".utf8) + path()
            case 7: out += Array("L ".utf8) + path() + [0x20] + path()
            case 8 where ordered: out += Array("X ".utf8) + path()
            default:
                let links = [
                    "L Contents/Resources/Documents Documentation",
                    "L Contents/Resources/Documents/Documentation ../Documentation",
                    "F 9 \(String(repeating: "ef", count: 32)) meta.json",
                ]
                out += Array(links.randomElement(using: &random)!.utf8)
            }
            out.append(0x0A)
            if Int.random(in: 0..<50, using: &random) == 0 { out.append(0x0A) }  // an empty line
        }
        return out
    }

    static func sorted(_ text: [UInt8], in dir: TemporaryDirectory, runBytes: Int) throws -> SortedManifest? {
        let file = dir.appending("manifest")
        try Data(text).write(to: URL(fileURLWithPath: file))
        let fd = open(file, O_RDONLY | O_CLOEXEC)
        #expect(fd >= 0)
        defer { close(fd) }
        return try SortedManifest.read(
            fd: fd, path: file, spillingInto: try SafeDirectory.open(dir.path), runBytes: runBytes)
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
    func digestAndPagesMatchTheDictionary(seed: UInt64) throws {
        let dir = try TemporaryDirectory("sorted-manifest")
        defer { dir.remove() }
        var random = TestRandom(seed: seed)
        let text = Self.randomText(&random, lines: Int.random(in: 0...600, using: &random), ordered: seed % 3 != 0)
        let reference = try #require(TreeManifest(decoding: text), "seed \(seed)")
        for runBytes in [1 << 20, 512, 97] {  // one run in memory; a few runs; many
            let manifest = try #require(try Self.sorted(text, in: dir, runBytes: runBytes), "seed \(seed)")
            #expect(try manifest.contentDigest() == reference.contentDigest, "seed \(seed), runs of \(runBytes)")
            let pages = ContentLines(keyOffset: VersionContent.pageKeyOffset)
            try manifest.appendPageLines(to: pages)
            #expect(Self.bytes(of: pages) == Self.referencePages(reference), "seed \(seed), runs of \(runBytes)")
            // The install's one pass: the digest and the same page lines together.
            let collected = ContentLines(keyOffset: VersionContent.pageKeyOffset)
            let digest = try manifest.contentDigest(collectingPagesInto: collected)
            #expect(digest == reference.contentDigest, "seed \(seed), runs of \(runBytes)")
            #expect(Self.bytes(of: collected) == Self.referencePages(reference), "seed \(seed), runs of \(runBytes)")
        }
        // The scratch file has no name: nothing is left in the folder but the manifest.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["manifest"])
    }

    @Test func notAManifestIsNil() throws {
        let dir = try TemporaryDirectory("sorted-manifest")
        defer { dir.remove() }
        for text in [
            "", "docsync-manifest 3\n", "docsync-manifest 1\nX a\n", "docsync-manifest 1\nF x abc a\n",
            "docsync-manifest 2\nD a\nQ b\n", "docsync-manifest 1\nD %zz\n", "\n\nD a\n",
        ] {
            #expect(TreeManifest(decoding: Array(text.utf8)) == nil, "\(text.debugDescription)")
            #expect(try Self.sorted(Array(text.utf8), in: dir, runBytes: 64) == nil, "\(text.debugDescription)")
        }
        let empty = try #require(try Self.sorted(Array("\ndocsync-manifest 1".utf8), in: dir, runBytes: 64))
        #expect(try empty.contentDigest() == TreeManifest().contentDigest)
    }

    /// Records longer than a merge window, runs of one record, and reading twice.
    @Test func sorterMergesRunsOfAnySize() throws {
        let dir = try TemporaryDirectory("record-sorter")
        defer { dir.remove() }
        var random = TestRandom(seed: 77)
        let sorter = RecordSorter(runBytes: 1000, spillingInto: try SafeDirectory.open(dir.path)) {
            $0.lexicographicallyPrecedes($1)
        }
        var records: [[UInt8]] = []
        for index in 0..<400 {
            let length = index % 97 == 0 ? RecordSorter.windowBytes + 5000 : Int.random(in: 0...40, using: &random)
            let record = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            records.append(record)
            try sorter.append(record)
        }
        for _ in 0..<2 {
            var out: [[UInt8]] = []
            try sorter.forEach { out.append(Array($0)) }
            #expect(out == records.sorted { $0.lexicographicallyPrecedes($1) })
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }

    /// `spillBuffered` (a finished section's records written out while the next one fills): records appended before
    /// and after it, with and without runs spilled already, and without a spill folder, come out sorted and whole.
    @Test(arguments: [(1000, 400), (1 << 20, 40), (1 << 20, 3000)])
    func sorterSpillsBufferedRecords(runBytes: Int, before: Int) throws {
        let dir = try TemporaryDirectory("record-sorter")
        defer { dir.remove() }
        var random = TestRandom(seed: UInt64(runBytes + before))
        for folder in [try SafeDirectory.open(dir.path), nil] {
            let sorter = RecordSorter(runBytes: runBytes, spillingInto: folder) { $0.lexicographicallyPrecedes($1) }
            var records: [[UInt8]] = []
            for index in 0..<(before + 300) {
                if index == before { try sorter.spillBuffered() }
                let record = (0..<Int.random(in: 0...60, using: &random)).map { _ in
                    UInt8.random(in: 0...255, using: &random)
                }
                records.append(record)
                try sorter.append(record)
            }
            try sorter.spillBuffered()
            var out: [[UInt8]] = []
            try sorter.forEach { out.append(Array($0)) }
            #expect(out == records.sorted { $0.lexicographicallyPrecedes($1) }, "runs of \(runBytes), \(before)")
            #expect(sorter.count == records.count)
        }
    }
}
