import DocSyncTarix
import Foundation
import TestSupport
import Testing

/// A store opened for many reads (`mappingUpTo`): its locations in memory give the same bytes and errors as the
/// index, without case; reads that must not wait (`withoutWaitingUpTo`) answer from the map and the page cache or
/// say they cannot; a store larger than the bound is read through its index.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct TarixLocationMapTests {
    private func store() throws -> (TarixFixture, String, String, UInt64) {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let fixture = try TarixFixture.make(&random, count: 60)
        let built = try fixture.build(try fixture.archive(format: "gnu"), label: "map")
        return (fixture, built.archive, built.index, random.seed)
    }

    private func bytes(_ reader: TarixArchive, _ path: String, inline: Int? = nil) throws(TarixError) -> [UInt8]? {
        try reader.read(path, withoutWaitingUpTo: inline) { size, fill in
            [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
                count = fill(UnsafeMutableRawBufferPointer(buffer)) ? size : 0
            }
        }
    }

    @Test func theMapReadsWhatTheIndexReads() throws {
        let (fixture, archive, index, seed) = try store()
        defer { fixture.dir.remove() }
        let mapped = try TarixArchive(archivePath: archive, indexPath: index, mappingUpTo: 10_000)
        let plain = try TarixArchive(archivePath: archive, indexPath: index)
        #expect(mapped.mappedDocuments == fixture.files.count, "every file row, no directory (seed \(seed))")
        #expect(plain.mappedDocuments == 0)
        for (path, expected) in fixture.files {
            #expect(try bytes(mapped, path) == expected, "\(path) seed \(seed)")
            let upper = String(decoding: path.utf8.map { (97...122).contains($0) ? $0 - 32 : $0 }, as: UTF8.self)
            #expect(try bytes(mapped, upper) == expected, "without ASCII case, as the index: \(path)")
            #expect(try mapped.read(path) == plain.read(path))
        }
        // Not in the map: the index answers, with its errors.
        #expect(throws: TarixError.notFound("\(TarixFixture.documents)/missing.html")) {
            _ = try bytes(mapped, "\(TarixFixture.documents)/missing.html")
        }
        do {
            _ = try bytes(mapped, TarixFixture.documents + "/")
            Issue.record("read a directory")
        } catch { #expect(error.kind == "unsupported_entry") }
        // A store over the bound keeps no map and reads through its index.
        let over = try TarixArchive(archivePath: archive, indexPath: index, mappingUpTo: fixture.files.count - 1)
        #expect(over.mappedDocuments == 0)
        let (path, expected) = try #require(fixture.files.first { !$0.value.isEmpty })
        #expect(try bytes(over, path) == expected)
    }

    @Test func readsWithoutWaitingAnswerFromTheMapOrDecline() throws {
        let (fixture, archive, index, seed) = try store()
        defer { fixture.dir.remove() }
        let mapped = try TarixArchive(archivePath: archive, indexPath: index, mappingUpTo: 10_000)
        let big = try #require(fixture.files.first { $0.value.count > 6000 })
        let small = try #require(fixture.files.first { $0.value.count > 100 && $0.value.count < 2000 })
        _ = try mapped.read(big.key)  // the archive's bytes are in the page cache now (just written and read)
        _ = try mapped.read(small.key)
        #expect(try bytes(mapped, small.key, inline: 4096) == small.value, "seed \(seed)")
        #expect(try bytes(mapped, big.key, inline: 4096) == nil, "over the inline bound: for a thread that may block")
        #expect(try bytes(mapped, big.key, inline: 64 << 10) == big.value)
        #expect(try bytes(mapped, "\(TarixFixture.documents)/missing.html", inline: 4096) == nil, "the index decides")
        let plain = try TarixArchive(archivePath: archive, indexPath: index)
        #expect(try bytes(plain, small.key, inline: 4096) == nil, "no map: no read without waiting")
        // The limits hold before inflating, in either path.
        var limits = TarixLimits()
        limits.maxDocumentBytes = 4000
        let bounded = try TarixArchive(archivePath: archive, indexPath: index, limits: limits, mappingUpTo: 10_000)
        do {
            _ = try bytes(bounded, big.key, inline: 64 << 10)
            Issue.record("read \(big.value.count) bytes over a 4000-byte limit")
        } catch { #expect(error.kind == "too_large", "\(error)") }
    }
}
