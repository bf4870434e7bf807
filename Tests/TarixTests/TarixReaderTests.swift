import DocSyncSupport
import DocSyncTarix
import Foundation
import GRDB
import TestSupport
import Testing

/// `TarixArchive`: Zeal's lookups (prefix added, without case), one bounded inflate, limits checked before
/// inflating, descriptors opened without following symlinks.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct TarixReaderTests {
    private func store() throws -> (TarixFixture, String, String, UInt64) {
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let fixture = try TarixFixture.make(&random, count: 50)
        let built = try fixture.build(try fixture.archive(format: "pax"), label: "reader")
        return (fixture, built.archive, built.index, random.seed)
    }

    @Test func lookupsAsZealDoes() throws {
        let (fixture, archive, index, seed) = try store()
        defer { fixture.dir.remove() }
        let reader = try TarixArchive(archivePath: archive, indexPath: index)
        let page = "\(TarixFixture.documents)/operator*.html"
        #expect(try reader.read(page) == Array("star".utf8), "seed \(seed)")
        #expect(try reader.read(page.uppercased()) == Array("star".utf8), "case-insensitive, as Zeal's NOCASE key")
        #expect(reader.exists(page))
        #expect(!reader.exists(TarixFixture.documents + "/"), "directories have no location")
        #expect(try reader.read("\(TarixFixture.documents)/empty.html") == [])
        #expect(throws: TarixError.notFound("\(TarixFixture.documents)/missing.html")) {
            _ = try reader.read("\(TarixFixture.documents)/missing.html")
        }
        do {
            _ = try reader.read(TarixFixture.documents + "/")
            Issue.record("read a directory")
        } catch { #expect(error.kind == "unsupported_entry") }
    }

    @Test func documentOverTheLimitIsRefused() throws {
        let (fixture, archive, index, _) = try store()
        defer { fixture.dir.remove() }
        var limits = TarixLimits()
        limits.maxDocumentBytes = 4000
        let reader = try TarixArchive(archivePath: archive, indexPath: index, limits: limits)
        let big = fixture.files.first { $0.value.count > 8000 }!
        do {
            _ = try reader.read(big.key)
            Issue.record("read \(big.value.count) bytes over a 4000-byte limit")
        } catch { #expect(error.kind == "too_large", "\(error)") }
        let small = fixture.files.first { $0.value.count < 4000 && $0.value.count > 0 }!
        #expect(try reader.read(small.key) == small.value)
    }

    @Test func corruptRowsAreRefusedNotTrusted() throws {
        let (fixture, archive, index, seed) = try store()
        defer { fixture.dir.remove() }
        let big = fixture.files.filter { $0.value.count > 4000 }.keys.sorted().first!
        let stored = "Sample.docset/\(big)"
        let queue = try DatabaseQueue(path: index)
        let hash = try queue.read { db in
            try String.fetchOne(db, sql: "SELECT hash FROM tarindex WHERE path = ?", arguments: [stored])!
        }
        let location = try #require(TarixLocation(hash: hash))
        try queue.close()
        let cases: [(String, String)] = [
            ("offset + 1", "\(location.block) \(location.offset + 1) \(location.length)"),
            ("length - 1", "\(location.block) \(location.offset) \(location.length - 1)"),
            ("length + 1", "\(location.block) \(location.offset) \(location.length + 1)"),
            ("past the end", "\(location.block) \(fixture.fileSize(archive) + 1) \(location.length)"),
            ("over Zeal's limit", "\(location.block) \(location.offset) 999999"),
            ("another record", "0 \(location.offset - 1) 1"),
        ]
        for (label, bad) in cases {
            let copy = fixture.dir.appending("row-\(abs(label.hashValue)).db")
            try FileManager.default.copyItem(atPath: index, toPath: copy)
            let edit = try DatabaseQueue(path: copy)
            try edit.write { db in
                try db.execute(sql: "UPDATE tarindex SET hash = ? WHERE path = ?", arguments: [bad, stored])
            }
            try edit.close()
            for mapped in [0, 1000] {  // the map of locations is checked against the record as the index is
                let reader = try TarixArchive(archivePath: archive, indexPath: copy, mappingUpTo: mapped)
                #expect(throws: TarixError.self, "\(label), map \(mapped) (seed \(seed))") { _ = try reader.read(big) }
            }
        }
    }

    /// The paged listing (the content record's scan) gives the whole listing's documents, each once, at any batch.
    @Test func pagedListingIsTheWholeListing() throws {
        let (fixture, archive, index, seed) = try store()
        defer { fixture.dir.remove() }
        let reader = try TarixArchive(archivePath: archive, indexPath: index)
        let whole = try reader.documentPaths()
        #expect(whole.count > 10, "seed \(seed)")
        for batch in [1, 3, whole.count, whole.count + 1, 4096] {
            var paged: [String] = []
            try reader.forEachDocumentPath(batch: batch) { paged.append($0) }
            #expect(paged.count == whole.count && Set(paged) == Set(whole), "batch \(batch), seed \(seed)")
        }
    }

    @Test func opensTheInstalledLayoutThroughADirectoryDescriptor() throws {
        let (fixture, archive, index, seed) = try store()
        defer { fixture.dir.remove() }
        let resources = fixture.dir.appending("Installed.docset/Contents/Resources")
        try FileManager.default.createDirectory(atPath: resources, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: archive, toPath: resources + "/tarix.tgz")
        try FileManager.default.copyItem(atPath: index, toPath: resources + "/tarixIndex.db")
        let reader = try TarixArchive(resources: SafeDirectory.open(resources))
        for (path, bytes) in fixture.files { #expect(try reader.read(path) == bytes, "\(path) seed \(seed)") }

        // A planted symlink in place of the archive is refused, not followed.
        let planted = fixture.dir.appending("Planted.docset/Contents/Resources")
        try FileManager.default.createDirectory(atPath: planted, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: planted + "/tarix.tgz", withDestinationPath: archive)
        try FileManager.default.copyItem(atPath: index, toPath: planted + "/tarixIndex.db")
        #expect(throws: TarixError.self) { _ = try TarixArchive(resources: SafeDirectory.open(planted)) }
    }

    @Test func symlinksAreNotFollowed() throws {
        let (fixture, archive, index, _) = try store()
        defer { fixture.dir.remove() }
        let linkedArchive = fixture.dir.appending("link.tgz")
        let linkedIndex = fixture.dir.appending("link.db")
        try FileManager.default.createSymbolicLink(atPath: linkedArchive, withDestinationPath: archive)
        try FileManager.default.createSymbolicLink(atPath: linkedIndex, withDestinationPath: index)
        #expect(throws: TarixError.self) { _ = try TarixArchive(archivePath: linkedArchive, indexPath: index) }
        #expect(throws: TarixError.self) { _ = try TarixArchive(archivePath: archive, indexPath: linkedIndex) }
    }

    @Test func concurrentReadsAgree() async throws {
        let (fixture, archive, index, seed) = try store()
        defer { fixture.dir.remove() }
        let reader = try TarixArchive(archivePath: archive, indexPath: index, mappingUpTo: 1000)
        let files = fixture.files
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    var bad = 0
                    for (i, (path, bytes)) in files.enumerated() where i % 4 == worker {
                        if (try? reader.read(path)) != bytes { bad += 1 }
                    }
                    return bad
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0, "seed \(seed)")
    }
}
