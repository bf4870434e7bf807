import DocSyncSupport
import Foundation
import TestSupport
import Testing

@testable import DocSyncDownload

/// The version-2 journal: round trip, torn or flipped bytes rejected, versions kept apart, inconsistent extents
/// rejected.
@Suite(.timeLimit(.minutes(10))) struct SegmentJournalTests {
    static let chunk: Int64 = 8

    static func sample() -> SegmentJournal {
        var partial = SHA256()
        partial.update([UInt8](repeating: 7, count: 3))
        return SegmentJournal(
            key: "docset/1.0", url: "http://127.0.0.1/x",
            identity: SegmentIdentity(length: 40, validator: Validator(etag: "\"v1\"")), chunkSize: chunk,
            extents: [
                .init(start: 0, end: 16, done: 16, chunkState: SHA256().savedState),
                .init(start: 16, end: 32, done: 27, chunkState: partial.savedState),
                .init(start: 32, end: 40, done: 32, chunkState: SHA256().savedState),
            ],
            digests: [0: Array(repeating: 1, count: 32), 1: Array(repeating: 2, count: 32), 2: Array(repeating: 3, count: 32)])
    }

    @Test func roundTrip() throws {
        let journal = Self.sample()
        let decoded = try #require(SegmentJournal(decoding: journal.encoded()))
        #expect(decoded == journal)
        #expect(decoded.contiguous == 27)
        #expect(decoded.durableBytes == 27)
        #expect(!decoded.isComplete)
    }

    @Test func everyFlippedByteIsRejected() {
        let data = Self.sample().encoded()
        for index in stride(from: 0, to: data.count, by: 7) {
            var bad = data
            bad[index] ^= 0x40
            #expect(SegmentJournal(decoding: bad) == nil, "byte \(index)")
        }
        #expect(SegmentJournal(decoding: Array(data.dropLast())) == nil)
    }

    @Test func versionsAreKeptApart() {
        let v2 = Self.sample().encoded()
        #expect(SegmentJournal.isSegmented(v2))
        #expect(Journal(decoding: v2) == nil)
        let v1 = Journal.empty(key: "k", chunkSize: 8).encoded()
        #expect(!SegmentJournal.isSegmented(v1))
        #expect(SegmentJournal(decoding: v1) == nil)
    }

    @Test func inconsistentJournalsAreRejected() {
        var missingDigest = Self.sample()
        missingDigest.digests[1] = nil
        #expect(SegmentJournal(decoding: missingDigest.encoded()) == nil)
        var gap = Self.sample()
        gap.extents[1].start = 17
        #expect(SegmentJournal(decoding: gap.encoded()) == nil)
        var pastEnd = Self.sample()
        pastEnd.extents[1].done = 33
        #expect(SegmentJournal(decoding: pastEnd.encoded()) == nil)
        var stray = Self.sample()
        stray.digests[4] = Array(repeating: 0, count: 32)
        #expect(SegmentJournal(decoding: stray.encoded()) == nil)
    }
}

@Suite(.timeLimit(.minutes(10))) struct SegmentedPartialListingTests {
    @Test func statusListsASegmentedPartialWithItsDurableBytes() throws {
        let directory = try TemporaryDirectory("docsync-partials")
        defer { directory.remove() }
        let journal = SegmentJournalTests.sample()
        try Data(journal.encoded()).write(to: URL(fileURLWithPath: directory.appending("x.journal")))
        var listed = PartialDownload.list(in: directory.path)
        #expect(listed.first?.updatedAt != nil, "its age comes from the journal's mtime")
        for i in listed.indices { listed[i].updatedAt = nil }
        #expect(listed == [PartialDownload(key: "docset/1.0", url: "http://127.0.0.1/x", bytes: 27, total: 40)])
    }
}
