@testable import DocSyncIndex
import Foundation
import TestSupport
import Testing

/// `names.bin` layout 6: each hit's display record and the meta data live in the one mapped file (no database is
/// open while searching); a damaged file or record is refused, never read past.
@Suite(.timeLimit(.minutes(10))) struct NameTableLayoutTests {
    struct Entry {
        var name: String
        var type: UInt16
        var path: String
        var fragment: String?
    }

    static let entries: [Entry] = [
        Entry(name: "NSString", type: 0, path: "NSString.html", fragment: "//apple_ref/occ/cl/NSString"),
        Entry(name: "printf", type: 1, path: "c/printf.html", fragment: nil),
        Entry(name: "Print", type: 1, path: "p.html", fragment: ""),
        Entry(name: "ZZZ é\nline", type: 2, path: "https://example.com/z", fragment: "a#b"),
        Entry(name: "a", type: 0, path: "", fragment: nil),
    ]
    static let meta: [(String, String)] = [
        ("layout", NameTable.layoutVersion), ("source", "docSet.dsidx:1:2.3:4"), ("entries", "5"),
        ("type:0", "Class"), ("type:1", "Function"), ("type:2", "Tab\there"),
    ]

    static func write(_ entries: [Entry], to path: String) throws {
        let builder = NameTable.Builder()
        for e in entries {
            try builder.append(e.name, type: e.type, location: EntryLocation(path: e.path, fragment: e.fragment),
                docset: "T")
        }
        try builder.write(to: path, meta: meta, docset: "T")
    }

    @Test func recordsAndMetaRoundTrip() throws {
        let dir = try TemporaryDirectory("names")
        defer { dir.remove() }
        let path = dir.appending("names.bin")
        try Self.write(Self.entries, to: path)
        let table = try #require(NameTable(path: path))
        #expect(table.count == Self.entries.count)
        var seen: [String] = []
        for i in 0..<table.count {
            let record = try #require(table.record(i))
            let original = try #require(Self.entries.first { $0.name == record.name })
            #expect(record.type == original.type)
            #expect(record.location == EntryLocation(path: original.path, fragment: original.fragment))
            let lowered = original.name.lowercased().replacingOccurrences(of: "\n", with: " ")
            #expect(Array(table.name(i)) == Array(lowered.utf8))
            seen.append(String(decoding: table.name(i), as: UTF8.self))
        }
        #expect(seen == seen.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        let meta = try #require(table.meta())
        #expect(meta.count == Self.meta.count)
        for (key, value) in Self.meta { #expect(meta[key] == value) }
        #expect(NameTable.typeNames(meta) == [0: "Class", 1: "Function", 2: "Tab\there"])
    }

    /// Names are stored lowercased (newlines as spaces) whether ASCII (lowercased byte by byte) or not (Swift's
    /// `lowercased()`), sorted bytewise with equal names in insertion order (names sharing their first 8 bytes
    /// included): seeded random names from a mixed alphabet, a third of them behind a common 12-byte prefix.
    @Test func namesAreLowercasedLikeSwiftAndSorted() throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let alphabet = ["a", "Z", "Q", "9", "_", ":", "\n", " ", "É", "ß", "İ", "Σ", "\u{301}", "[", "@", "`", "{"]
        let entries = (0..<600).map { i in
            let count = Int.random(in: 0...6, using: &random)
            let tail = (0..<count).map { _ in alphabet.randomElement(using: &random)! }.joined()
            let name = i % 3 == 0 ? "CommonPrefix" + tail : tail.isEmpty ? "x" : tail
            return Entry(name: name, type: 0, path: "p\(i).html", fragment: nil)
        }
        let dir = try TemporaryDirectory("names")
        defer { dir.remove() }
        let path = dir.appending("names.bin")
        try Self.write(entries, to: path)
        let table = try #require(NameTable(path: path))
        for i in 0..<table.count {
            let record = try #require(table.record(i))
            let lowered = record.name.lowercased().utf8.map { $0 == 0x0A ? 0x20 : $0 }  // newline bytes as spaces
            #expect(Array(table.name(i)) == lowered, "\(record.name.debugDescription) (seed \(random.seed))")
        }
        for i in 1..<table.count {
            let (previous, name) = (Array(table.name(i - 1)), Array(table.name(i)))
            #expect(!name.lexicographicallyPrecedes(previous), "sorted at \(i) (seed \(random.seed))")
            if previous == name {
                let (a, b) = (try #require(table.record(i - 1)), try #require(table.record(i)))
                let position = { (path: String) in Int(path.dropFirst().dropLast(5))! }
                #expect(position(a.location.path) < position(b.location.path), "ties (seed \(random.seed))")
            }
        }
    }

    /// The trigram postings bucketed by their first two bytes equal the (trigram, rank) pairs sorted, whether the
    /// buckets are sorted all at once or a few at a time (`chunk`: down to one bucket per run): seeded random names
    /// (repeated trigrams, short names, non-ASCII bytes) in a random rank order.
    @Test(arguments: [1, 97, NameTable.Builder.chunkOccurrences])
    func bucketedPostingsEqualSortedPairs(chunk: Int) throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let alphabet = ["a", "b", "c", "é", "\u{0}", "ÿ", " ", "ab"]
        let builder = NameTable.Builder()
        for i in 0..<3_000 {
            let count = Int.random(in: 0...9, using: &random)
            let name = (0..<count).map { _ in alphabet.randomElement(using: &random)! }.joined()
            try builder.append(name, type: 0, location: EntryLocation(path: "p\(i)", fragment: nil), docset: "T")
        }
        builder.endLastEntry()
        let order = (0..<UInt32(builder.count)).shuffled(using: &random)
        let rank = (0..<UInt32(builder.count)).shuffled(using: &random)
        let bucketed = builder.bucketedPostings(order: order, rank: rank, chunk: chunk)
        let sorted = builder.sortedPostings(order: order, rank: rank)
        #expect(bucketed.keys == sorted.keys, "seed \(random.seed)")
        #expect(bucketed.keyStarts == sorted.keyStarts, "seed \(random.seed)")
        #expect(bucketed.postings == sorted.postings, "seed \(random.seed)")
        #expect(!sorted.postings.isEmpty)
    }

    /// Records spilled to a scratch file and placed through windows and blocks of the smallest size accepted and up
    /// (records longer than both, straddling them; a pass cap that widens the window) give the same file byte for
    /// byte as records kept in memory: seeded random names and paths. About 70 KB of records: a few dozen reads.
    @Test(arguments: [
        (4096, 4096, 1000), (4096, 5000, 1000), (6000, 4096, 1000), (4096, 4096, 3), (2 << 20, 256 << 10, 16),
    ])
    func spilledRecordsGiveTheSameFile(window: Int, block: Int, passes: Int) throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let alphabet = ["a", "B", "c", "é", "_", ".", "Σ", "ab"]
        func word(_ most: Int) -> String {
            (0..<Int.random(in: 0...most, using: &random)).map { _ in alphabet.randomElement(using: &random)! }.joined()
        }
        let entries = (0..<700).map { (i: Int) -> Entry in
            var fragment: String? = i % 4 == 0 ? nil : word(30)
            if i % 97 == 5 { fragment = String(repeating: word(30) + "/", count: 600) }  // longer than a window
            let name = word(12) + "\(i % 50)"
            return Entry(name: name, type: UInt16(i % 3), path: "p/\(word(20)).html", fragment: fragment)
        }
        let dir = try TemporaryDirectory("names")
        defer { dir.remove() }
        try Self.write(entries, to: dir.appending("memory.bin"))
        let spill = dir.appending("spill")
        try FileManager.default.createDirectory(atPath: spill, withIntermediateDirectories: true)
        let builder = try NameTable.Builder(
            spillDirectory: spill, docset: "T", windowBytes: window, blockBytes: block, maxPasses: passes)
        for e in entries {
            try builder.append(e.name, type: e.type, location: EntryLocation(path: e.path, fragment: e.fragment),
                docset: "T")
        }
        try builder.write(to: dir.appending("spilled.bin"), meta: Self.meta, docset: "T")
        let memory = try Data(contentsOf: URL(fileURLWithPath: dir.appending("memory.bin")))
        let spilled = try Data(contentsOf: URL(fileURLWithPath: dir.appending("spilled.bin")))
        #expect(memory == spilled, "window \(window), block \(block), passes \(passes) (seed \(random.seed))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: spill).isEmpty, "scratch files left behind")
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(left == ["memory.bin", "spill", "spilled.bin"])
    }

    /// Truncated files, a wrong magic and a record whose lengths do not add up: nil, not a read past the mapping.
    @Test func damagedFilesAreRefused() throws {
        let dir = try TemporaryDirectory("names")
        defer { dir.remove() }
        let path = dir.appending("names.bin")
        try Self.write(Self.entries, to: path)
        let good = try Data(contentsOf: URL(fileURLWithPath: path))
        for cut in [0, 7, 31, good.count / 2, good.count - 1] {
            let damaged = dir.appending("cut-\(cut).bin")
            try good.prefix(cut).write(to: URL(fileURLWithPath: damaged))
            #expect(NameTable(path: damaged) == nil, "cut at \(cut)")
        }
        var magic = good
        magic[7] = UInt8(ascii: "2")
        try magic.write(to: URL(fileURLWithPath: dir.appending("magic.bin")))
        #expect(NameTable(path: dir.appending("magic.bin")) == nil)

        // The first record's name length made huge: that record is refused, the others still read.
        let table = try #require(NameTable(path: path))
        let recordsStart = good.count - table.metaBytes.count - table.recordBytes.count
        var record = good
        record.replaceSubrange(recordsStart..<(recordsStart + 4), with: [0xFF, 0xFF, 0xFF, 0x7F])
        try record.write(to: URL(fileURLWithPath: dir.appending("record.bin")))
        let broken = try #require(NameTable(path: dir.appending("record.bin")))
        #expect(broken.record(0) == nil)
        #expect(broken.record(1) != nil)
    }

    /// Layout 4: `order` lists the sorted positions by name length, then position (a name's rank); `lengthStarts`
    /// groups the ranks by length (256 bytes and more together); the in-memory masks follow the ranks, and the
    /// trigram postings hold ranks. Layout 5: the rank names hold each group's names by rank.
    @Test func ranksFollowNameLength() throws {
        let dir = try TemporaryDirectory("names")
        defer { dir.remove() }
        let path = dir.appending("names.bin")
        let long = Entry(name: String(repeating: "Ab", count: 150), type: 0, path: "l.html", fragment: nil)
        let longer = Entry(name: String(repeating: "Ab", count: 151), type: 0, path: "m.html", fragment: nil)
        try Self.write([longer] + Self.entries + [long], to: path)
        let table = try #require(NameTable(path: path))
        #expect(table.count == Self.entries.count + 2)
        var seen = Set<Int>()
        var previous = (length: -1, position: -1)
        for rank in 0..<table.count {
            let i = table.position(rank: rank)
            seen.insert(i)
            let length = table.length(i)
            #expect(length > previous.length || (length == previous.length && i > previous.position))
            previous = (length, i)
            let group = min(length, NameTable.lengthGroups)
            #expect(table.ranks(ofGroup: group).contains(rank))
            #expect(table.length(rank: rank, group: group) == length)
            var stored: UInt64 = 0  // the scan mask in the file, as `MaskWalk` reads it
            withUnsafeMutableBytes(of: &stored) {
                table.read(table.areas.lengthMasks + 8 * rank, 8, into: $0.baseAddress!)
            }
            let masks = (UInt64(littleEndian: stored), NameTable.fold(NameTable.mask(table.name(i))))
            #expect(masks.0 == NameTable.scanMask(table.name(i)))  // layout 6: 64 bits, the low half as before
            #expect(UInt32(truncatingIfNeeded: masks.0) == masks.1)
            if group < NameTable.lengthGroups {  // layout 5: the group's names again, by rank, `group` bytes each
                var names: [UInt8] = []
                table.readRankNames(group: group, into: &names)
                let at = (rank - table.ranks(ofGroup: group).lowerBound) * group
                #expect(Array(names[at..<(at + group)]) == Array(table.name(i)))
            }
            let name = Array(table.name(i))
            if name.count >= 3 {
                let postings = try #require(table.postings(of: NameTable.trigram(name[0], name[1], name[2])))
                #expect(postings.contains { table.postings[$0] == UInt32(rank) })
            }
        }
        #expect(seen.count == table.count)
        #expect(table.ranks(ofGroup: NameTable.lengthGroups).count == 2)
    }

    /// The scan mask: the low half is the folded character mask, the high half the folded characters seen twice
    /// or more (two different digits, two bytes of one non-ASCII character and two other punctuation bytes of one
    /// group count as repeats, as a query's bytes would).
    @Test(arguments: [
        ("", [], []), ("a", ["a"], []), ("aab", ["a", "b"], ["a"]), ("banana", ["a", "b", "n"], ["a", "n"]),
        ("x1", ["x", "1"], []), ("19", ["1"], ["1"]), ("é", ["é"], ["é"]),
        ("a.b_c", ["a", "b", "c", ".", "_"], ["."]),
        ("::", [":"], [":"]),
    ] as [(String, [String], [String])])
    func scanMaskCountsRepeats(name: String, present: [String], twice: [String]) {
        func bits(_ characters: [String]) -> UInt32 {
            characters.reduce(0) { $0 | NameTable.fold(NameTable.mask(Array($1.utf8))) }
        }
        let m = NameTable.scanMask(Array(name.utf8))
        #expect(UInt32(truncatingIfNeeded: m) == bits(present))
        #expect(UInt32(truncatingIfNeeded: m >> 32) == bits(twice))
        #expect(UInt32(truncatingIfNeeded: m) == NameTable.fold(NameTable.mask(Array(name.utf8))))
    }

    /// `gallop`: the first index at or after `from` whose value is at least the target.
    @Test(arguments: [
        ([], 0, 5, 0), ([1, 3, 5, 7], 0, 0, 0), ([1, 3, 5, 7], 0, 1, 0), ([1, 3, 5, 7], 0, 4, 2),
        ([1, 3, 5, 7], 0, 7, 3), ([1, 3, 5, 7], 0, 8, 4), ([1, 3, 5, 7], 2, 3, 2), ([1, 3, 5, 7], 3, 100, 4),
        (Array(0..<1000).map { $0 * 2 }, 10, 1001, 501), (Array(0..<1000).map { $0 * 2 }, 0, 1998, 999),
    ] as [([UInt32], Int, UInt32, Int)])
    func gallop(values: [UInt32], from: Int, target: UInt32, expected: Int) {
        values.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress ?? UnsafePointer(bitPattern: 8)!
            #expect(NameTable.gallop(base, from: from, to: values.count, target) == expected)
        }
    }

    /// The 32-bit folded mask: letters keep their bits, digits share one, other ASCII four, non-ASCII one; a name
    /// that contains a query always covers the query's folded mask.
    @Test(arguments: [
        ("a", UInt32(1)), ("z", 1 << 25), ("abz", 1 | 2 | 1 << 25), ("0", 1 << 26), ("09", 1 << 26),
        ("é", 1 << 31), ("", 0),
    ] as [(String, UInt32)])
    func fold(text: String, expected: UInt32) {
        #expect(NameTable.fold(NameTable.mask(Array(text.utf8))) == expected)
    }

    @Test func foldKeepsContainment() {
        var rng = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let seed = rng.seed
        let alphabet = Array("abcxyz019_.:-+/é ~".utf8)
        for _ in 0..<2000 {
            let name = (0..<Int.random(in: 1...12, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
            let start = Int.random(in: 0..<name.count, using: &rng)
            let part = Array(name[start..<Int.random(in: (start + 1)...name.count, using: &rng)])
            let (n, q) = (NameTable.fold(NameTable.mask(name)), NameTable.fold(NameTable.mask(part)))
            #expect(n & q == q, "name \(name), part \(part), seed \(seed)")
        }
    }
}

extension NameTable.Builder {
    /// `write(to:docset:meta:)` with the meta at hand.
    func write(to path: String, meta: [(String, String)], docset: String) throws(DocsetIndexError) {
        _ = try write(to: path, docset: docset) { meta }
    }
}
