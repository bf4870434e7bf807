import DocSyncTarix
import Foundation
import TestSupport
import Testing

/// Stores built from GNU tar archives (GNU long names, pax headers, ustar prefixes, `./` roots) read back
/// byte-identical to GNU tar's extraction — by docsync's reader and by Zeal's algorithm (in Python).
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct TarixRoundTripTests {
    static let formats = ["gnu", "pax", "ustar", "oldgnu"]

    @Test(arguments: formats)
    func reencodedStoreReadsBackEveryDocument(format: String) throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let fixture = try TarixFixture.make(&random, ustar: format == "ustar")
        defer { fixture.dir.remove() }
        let source = try fixture.archive(format: format)
        let store = try fixture.build(source, label: format)
        #expect(store.summary.mode == .reencoded, "seed \(random.seed)")
        #expect(store.summary.documents == fixture.files.count, "seed \(random.seed)")
        #expect(store.summary.rootPrefix == "Sample.docset/")

        let verified = try fixture.verify(store.archive, store.index)
        #expect(verified.documents == fixture.files.count)
        #expect(verified.indexRows == store.summary.indexRows)

        let extracted = try fixture.extract(source, label: format)
        let zeal = try fixture.python(ZealScripts.reader, [store.archive, store.index, extracted])
        #expect(zeal == "OK \(fixture.files.count)\n", "seed \(random.seed)")

        let reader = try TarixArchive(archivePath: store.archive, indexPath: store.index)
        #expect(reader.rootPrefix == "Sample.docset/")
        for (path, bytes) in fixture.files {
            #expect(try reader.read(path) == bytes, "\(path) seed \(random.seed)")
        }
        let ratio = Double(fixture.fileSize(store.archive)) / Double(fixture.fileSize(source))
        print(
            "tarix \(format): source \(fixture.fileSize(source)) B, re-encoded \(fixture.fileSize(store.archive)) B "
                + "(\(String(format: "%.2f", ratio))x), tar \(store.summary.tarBytes) B, "
                + "\(store.summary.records) records")
    }

    @Test func dotSlashRootKeepsItsPrefix() throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let fixture = try TarixFixture.make(&random, count: 40)
        defer { fixture.dir.remove() }
        // `tar -C Sample.docset/.. .` stores `./Sample.docset/...` (and a `./` entry): Zeal's prefix is
        // `./Sample.docset/`.
        let source = try fixture.archive(format: "gnu", dotSlash: true)
        let store = try fixture.build(source, label: "dot")
        #expect(store.summary.rootPrefix == "./Sample.docset/")
        _ = try fixture.verify(store.archive, store.index)
        let reader = try TarixArchive(archivePath: store.archive, indexPath: store.index)
        #expect(reader.rootPrefix == "./Sample.docset/")
        for (path, bytes) in fixture.files { #expect(try reader.read(path) == bytes, "\(path) seed \(random.seed)") }
    }

    @Test func alreadyFlushedArchiveIsIndexedAsItIs() throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let fixture = try TarixFixture.make(&random, count: 120)
        defer { fixture.dir.remove() }
        let source = try fixture.archive(format: "gnu")
        let first = try fixture.build(source, label: "first")
        #expect(first.summary.mode == .reencoded)
        // docsync's own output is flushed at every record: indexing it again keeps it as it is.
        let again = try fixture.build(first.archive, label: "again")
        #expect(again.summary.mode == .indexedAsIs)
        #expect(again.archive == first.archive)
        #expect(again.summary.documents == fixture.files.count)
        _ = try fixture.verify(again.archive, again.index)
        let extracted = try fixture.extract(source, label: "again")
        #expect(
            try fixture.python(ZealScripts.reader, [again.archive, again.index, extracted])
                == "OK \(fixture.files.count)\n")

        // A publisher's archive and index written the way Zeal's test writes them (Python's zlib at level 6):
        // the index verifies, and building finds the archive already flushed.
        let publisherArchive = fixture.dir.appending("publisher.tgz")
        let publisherIndex = fixture.dir.appending("publisher.db")
        _ = try fixture.python(ZealScripts.writer, [source, publisherArchive, publisherIndex])
        let verified = try fixture.verify(publisherArchive, publisherIndex)
        #expect(verified.documents == fixture.files.count)
        let own = try fixture.build(publisherArchive, label: "publisher")
        #expect(own.summary.mode == .indexedAsIs)
        #expect(
            try fixture.python(ZealScripts.reader, [own.archive, own.index, extracted]) == "OK \(fixture.files.count)\n"
        )
        let reader = try TarixArchive(archivePath: publisherArchive, indexPath: publisherIndex)
        for (path, bytes) in fixture.files { #expect(try reader.read(path) == bytes, "\(path) seed \(random.seed)") }
    }

    @Test func manySmallFilesAndTheCostOfFlushing() throws {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let fixture = try TarixFixture.make(&random, count: 3000, longNames: false)
        defer { fixture.dir.remove() }
        let source = try fixture.archive(format: "gnu")
        for level: Int32 in [1, 6] {
            let store = try fixture.build(source, label: "level\(level)", level: level)
            #expect(store.summary.documents == fixture.files.count)
            _ = try fixture.verify(store.archive, store.index)
            let ratio = Double(fixture.fileSize(store.archive)) / Double(fixture.fileSize(source))
            print(
                "tarix level \(level): \(fixture.files.count) files, source \(fixture.fileSize(source)) B, "
                    + "re-encoded \(fixture.fileSize(store.archive)) B (\(String(format: "%.2f", ratio))x), "
                    + "tar \(store.summary.tarBytes) B, index \(fixture.fileSize(store.index)) B")
        }
    }
}
