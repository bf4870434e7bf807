import DocSyncTarix
import Foundation
import GRDB
import TestSupport
import Testing

/// ISA-L's raw inflate of one tarix record (what document reads use for records of 64 KiB or more) and libdeflate's
/// whole-buffer inflate (short records whose end the map of locations knows) against zlib's: the same bytes for
/// every record of a generated store (tiny, large, stored and compressible records, all levels), and a damaged
/// record refused by each, never read as a wrong page.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct TarixRecordInflateTests {
    /// The shared fixture plus records chosen to stress the decoder: tiny ones, incompressible ones (stored deflate
    /// blocks), large compressible ones whose back-references cross the 32 KiB window and the header/content
    /// boundary, and a large one that mixes both.
    private func store(_ random: inout TestRandom) throws -> TarixFixture {
        var fixture = try TarixFixture.make(&random, count: 60)
        let folder = "\(TarixFixture.documents)/inflate"
        var extra: [String: [UInt8]] = [:]
        for i in 0..<12 { extra["\(folder)/tiny-\(i).html"] = (0..<Int.random(in: 1...40, using: &random)).map {
            _ in UInt8.random(in: 0x61...0x7a, using: &random) } }
        for i in 0..<3 {
            let size = Int.random(in: 20_000...300_000, using: &random)
            extra["\(folder)/stored-\(i).bin"] = (0..<size).map { _ in UInt8.random(in: 0...255, using: &random) }
        }
        let words = (0..<200).map { "w\($0)x\(Int.random(in: 0...99_999, using: &random))" }
        for i in 0..<3 {
            let size = Int.random(in: 200_000...1_500_000, using: &random)
            var text: [UInt8] = []
            text.reserveCapacity(size + 64)
            while text.count < size {
                text += Array("<p>\(words[Int.random(in: 0..<words.count, using: &random)])</p>\n".utf8)
                if Int.random(in: 0..<50, using: &random) == 0 {  // a repeat from far back (up to 32 KiB)
                    let back = Int.random(in: 1...min(32_768, max(1, text.count)), using: &random)
                    let start = text.count - back
                    text += text[start..<min(text.count, start + Int.random(in: 3...258, using: &random))]
                }
            }
            extra["\(folder)/large-\(i).html"] = Array(text.prefix(size))
        }
        var mixed: [UInt8] = []
        while mixed.count < 400_000 {
            if Bool.random(using: &random) {
                mixed += (0..<Int.random(in: 100...9000, using: &random)).map { _ in
                    UInt8.random(in: 0...255, using: &random)
                }
            } else {
                mixed += Array(String(repeating: "mixed <b>content</b> ", count: 100).utf8)
            }
        }
        extra["\(folder)/mixed.bin"] = mixed
        try FileManager.default.createDirectory(atPath: fixture.root + "/" + folder, withIntermediateDirectories: true)
        for (path, bytes) in extra {
            guard FileManager.default.createFile(atPath: fixture.root + "/" + path, contents: Data(bytes)) else {
                throw FixtureFailure(command: "create \(path)", output: "")
            }
            fixture.files[path] = bytes
        }
        return fixture
    }

    /// The fixture's document whose path ends in `suffix`, its record's compressed offset, and the archive's bytes.
    private static func record(endingIn suffix: String, of fixture: TarixFixture, _ archive: String, _ index: String)
        throws -> (path: String, offset: Int, archive: [UInt8])
    {
        let target = fixture.files.filter { $0.key.hasSuffix(suffix) }.keys.first!
        let queue = try DatabaseQueue(path: index)
        let hash = try queue.read { db in
            try String.fetchOne(
                db, sql: "SELECT hash FROM tarindex WHERE path = ?", arguments: ["Sample.docset/\(target)"])!
        }
        try queue.close()
        let location = try #require(TarixLocation(hash: hash))
        return (target, Int(location.offset), try [UInt8](Data(contentsOf: URL(fileURLWithPath: archive))))
    }

    @Test func isalReadsEqualZlibReads() throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let fixture = try store(&random)
        defer { fixture.dir.remove() }
        let source = try fixture.archive(format: "pax")
        for level: Int32 in [0, 1, 9] {
            let built = try fixture.build(source, label: "level\(level)", level: level)
            for mapped in [0, 10_000] {
                let reader = try TarixArchive(archivePath: built.archive, indexPath: built.index, mappingUpTo: mapped)
                var compared = 0
                for (path, bytes) in fixture.files.sorted(by: { $0.key < $1.key }) {
                    let isal = try reader.read(path, engine: .isal)
                    let zlib = try reader.read(path, engine: .zlib)
                    #expect(isal == zlib, "\(path): level \(level), map \(mapped), seed \(random.seed)")
                    #expect(isal == bytes, "\(path): level \(level), map \(mapped), seed \(random.seed)")
                    #expect(try reader.read(path) == bytes, "\(path): by size, level \(level), seed \(random.seed)")
                    if isal != bytes { return }
                    compared += 1
                }
                #expect(compared == fixture.files.count)
                // libdeflate, strictly: a short record whose compressed end is known reads whole, the same bytes;
                // any other is refused (never wrong bytes). With the map, nearly every short record qualifies.
                var whole = 0
                let short = fixture.files.filter { $0.value.count < 60_000 }
                for (path, bytes) in short.sorted(by: { $0.key < $1.key }) {
                    guard let read = try? reader.read(path, engine: .libdeflate) else { continue }
                    #expect(read == bytes, "\(path): libdeflate, level \(level), map \(mapped), seed \(random.seed)")
                    whole += 1
                }
                if mapped == 0 {
                    #expect(whole == 0, "no end known without the map: seed \(random.seed)")
                } else {
                    #expect(whole * 10 >= short.count * 8, "\(whole) of \(short.count) whole, seed \(random.seed)")
                }
                // The event loop's read (cached bytes only, bounded) inflates with ISA-L too.
                if mapped > 0 {
                    let small = fixture.files.filter { $0.value.count < 4000 }.keys.sorted()
                    for path in small {
                        let page = try reader.read(path, withoutWaitingUpTo: 8192) { size, fill in
                            [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
                                count = fill(UnsafeMutableRawBufferPointer(buffer)) ? size : 0
                            }
                        }
                        if let page { #expect(page == fixture.files[path], "\(path) inline, seed \(random.seed)") }
                    }
                }
            }
        }
    }

    @Test func damagedRecordsAreRefusedByBoth() throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let fixture = try store(&random)
        defer { fixture.dir.remove() }
        let source = try fixture.archive(format: "pax")
        for level: Int32 in [0, 1] {
            let built = try fixture.build(source, label: "damage\(level)", level: level)
            let (target, start, original) = try Self.record(
                endingIn: "large-0.html", of: fixture, built.archive, built.index)
            // 0xFF at the record's first byte: a reserved block type. Stored (level 0): the first header byte
            // (after the 5-byte stored-block header) flipped, so the tar header's checksum fails. Cut: the archive
            // ends inside the record.
            var damages: [(String, [UInt8])] = []
            var badType = original
            badType[start] = 0xFF
            damages.append(("reserved block type", badType))
            if level == 0 {
                var badName = original
                badName[start + 5] ^= 0x20
                damages.append(("header byte flipped", badName))
            }
            damages.append(("cut inside the record", Array(original[..<(start + 300)])))
            for (label, bytes) in damages {
                let copy = fixture.dir.appending("damaged-\(level)-\(abs(label.hashValue)).tgz")
                try Data(bytes).write(to: URL(fileURLWithPath: copy))
                for mapped in [0, 10_000] {
                    let reader = try TarixArchive(archivePath: copy, indexPath: built.index, mappingUpTo: mapped)
                    for engine: RecordInflate in [.isal, .zlib, .libdeflate] {
                        #expect(throws: TarixError.self, "\(label), \(engine), map \(mapped), seed \(random.seed)") {
                            _ = try reader.read(target, engine: engine)
                        }
                    }
                    // Every other record still reads right with ISA-L.
                    let other = fixture.files.filter { $0.key.hasSuffix("stored-0.bin") }.first!
                    if label != "cut inside the record" {
                        #expect(try reader.read(other.key, engine: .isal) == other.value, "seed \(random.seed)")
                    }
                }
            }
        }
    }

    /// A short record damaged (a reserved block type at its start, the archive cut inside it): libdeflate's
    /// whole-buffer read refuses it, and so does the default read, which falls back to zlib's stream (whose error
    /// says what is wrong).
    @Test func damagedShortRecordsAreRefusedWhole() throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let fixture = try store(&random)
        defer { fixture.dir.remove() }
        let source = try fixture.archive(format: "pax")
        let built = try fixture.build(source, label: "short", level: 1)
        let (target, start, original) = try Self.record(
            endingIn: "tiny-3.html", of: fixture, built.archive, built.index)
        let intact = try TarixArchive(archivePath: built.archive, indexPath: built.index, mappingUpTo: 10_000)
        #expect(try intact.read(target, engine: .libdeflate) == fixture.files[target], "seed \(random.seed)")
        var badType = original
        badType[start] = 0xFF
        let cut = Array(original[..<(start + 20)])
        for (label, bytes) in [("reserved block type", badType), ("cut inside the record", cut)] {
            let copy = fixture.dir.appending("short-\(label.count).tgz")
            try Data(bytes).write(to: URL(fileURLWithPath: copy))
            let reader = try TarixArchive(archivePath: copy, indexPath: built.index, mappingUpTo: 10_000)
            for engine: RecordInflate in [.libdeflate, .bySize, .zlib] {
                #expect(throws: TarixError.self, "\(label), \(engine), seed \(random.seed)") {
                    _ = try reader.read(target, engine: engine)
                }
            }
        }
    }
}
