@testable import DocSyncIndex
import Foundation
import TestSupport
import Testing

/// A derived index larger than the slices its parts are handled in, so that the bounded-memory paths run: the
/// display records placed through windows handed out in pieces (`RecordWindows.emitBytes`), postings runs larger
/// than a scratch block written past the buffer, and an open that checks the mapping a slice at a time
/// (`NameTable.sliceValues`) and drops the pages behind it. The spilled build gives the in-memory build's bytes; the
/// table opens with every name, mask and posting right; a value damaged in a late slice is still refused.
@Suite(.timeLimit(.minutes(10))) struct NameTableScaleTests {
    typealias Entry = NameTableLayoutTests.Entry

    /// More entries and postings than a slice, records of more than one window and several emitted pieces.
    static func entries(_ random: inout TestRandom) -> [Entry] {
        let letters = Array("abcdefghijklmnopqrstuvwxyz_.ABC")
        return (0..<(NameTable.sliceValues + 4000)).map { i in
            let length = Int.random(in: 1...14, using: &random)
            let name = String((0..<length).map { _ in letters.randomElement(using: &random)! }) + "\(i % 13)"
            return Entry(name: name, type: UInt16(i % 5), path: "s\(i % 60)/page\(i).html", fragment: "m\(i % 97)")
        }
    }

    static func build(_ entries: [Entry], spill: String?, to path: String) throws {
        let builder = try spill.map { try NameTable.Builder(spillDirectory: $0, docset: "T") } ?? NameTable.Builder()
        for e in entries {
            try builder.append(
                e.name, type: e.type, location: EntryLocation(path: e.path, fragment: e.fragment), docset: "T")
        }
        try builder.write(to: path, meta: NameTableLayoutTests.meta, docset: "T")
    }

    @Test func largeIndexBuildsAndOpensInSlices() throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let entries = Self.entries(&random)
        let dir = try TemporaryDirectory("names-scale")
        defer { dir.remove() }
        let spill = dir.appending("spill")
        try FileManager.default.createDirectory(atPath: spill, withIntermediateDirectories: true)
        try Self.build(entries, spill: nil, to: dir.appending("memory.bin"))
        try Self.build(entries, spill: spill, to: dir.appending("spilled.bin"))
        let memory = try Data(contentsOf: URL(fileURLWithPath: dir.appending("memory.bin")))
        let spilled = try Data(contentsOf: URL(fileURLWithPath: dir.appending("spilled.bin")))
        #expect(memory == spilled, "seed \(random.seed)")

        let table = try #require(NameTable(path: dir.appending("spilled.bin")), "seed \(random.seed)")
        #expect(table.count == entries.count)
        #expect((table.areas.names - table.areas.postings) / 4 > 2 * NameTable.sliceValues, "postings: > 2 slices")
        let recordBytes = table.recordBytes.count
        #expect(recordBytes > 2 * NameTable.RecordWindows.emitBytes)
        let sorted = entries.map { Array($0.name.lowercased().utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
        var names: [[UInt8]] = []
        for i in 0..<table.count { names.append(Array(table.name(i))) }
        #expect(names == sorted, "names in sorted order (seed \(random.seed))")
        for rank in stride(from: 0, to: table.count, by: 997) {
            let i = table.position(rank: rank)
            var stored: UInt64 = 0  // the scan mask in the file, as `MaskWalk` reads it
            withUnsafeMutableBytes(of: &stored) {
                table.read(table.areas.lengthMasks + 8 * rank, 8, into: $0.baseAddress!)
            }
            #expect(UInt64(littleEndian: stored) == NameTable.scanMask(table.name(i)), "rank \(rank)")
        }
        let byName = Dictionary(entries.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for i in stride(from: 0, to: table.count, by: 1009) {
            let record = try #require(table.record(i))
            #expect(byName[record.name] != nil, "record \(i): \(record.name)")
        }

        // A posting past the last name in the last slice, and an offset going back in the second slice: refused.
        let areas = table.areas
        var posting = spilled
        posting.replaceSubrange((areas.names - 4)..<areas.names, with: [0xFF, 0xFF, 0xFF, 0x7F])
        try posting.write(to: URL(fileURLWithPath: dir.appending("posting.bin")))
        #expect(NameTable(path: dir.appending("posting.bin")) == nil)
        var offset = spilled
        let at = areas.offsets + 4 * (NameTable.sliceValues + 10)
        offset.replaceSubrange(at..<(at + 4), with: [0, 0, 0, 0])
        try offset.write(to: URL(fileURLWithPath: dir.appending("offset.bin")))
        #expect(NameTable(path: dir.appending("offset.bin")) == nil)
    }

    /// Appends larger than a block go past the buffer, smaller ones through it: read back in blocks, the same bytes
    /// in the same order.
    @Test func scratchFileKeepsOrderAcrossLargeAppends() throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let dir = try TemporaryDirectory("names-scratch")
        defer { dir.remove() }
        let file = try NameTable.ScratchFile(path: dir.appending("s.tmp"), docset: "T", blockBytes: 4096)
        var expected: [UInt8] = []
        for k in 0..<60 {
            let count = Int.random(in: k % 7 == 3 ? 4096...20000 : 0...900, using: &random)
            let chunk = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
            chunk.withUnsafeBytes { file.append($0) }
            expected += chunk
        }
        #expect(file.count == expected.count)
        var read: [UInt8] = []
        try file.blocks { offset, block in
            #expect(offset == read.count)
            read += block
        }
        #expect(read == expected, "seed \(random.seed)")
    }
}
