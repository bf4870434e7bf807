import DocSyncSupport
import Synchronization
import TestSupport
import Testing

@testable import DocSyncDownload

#if canImport(Glibc)
    import Glibc
#endif

/// The data path on its own, against real files: whatever the piece sizes, commit timing, write mode or resume
/// point, the file holds exactly the bytes appended, and the journal's hash state and checkpoints hash exactly them.
/// Serialized and kept to a few MiB: the other suites share the test process (and its cooperative pool).
@Suite(.serialized, .timeLimit(.minutes(10)), .blockingWaits) struct WritePipelineTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var directIO: Bool
        /// 0 commits (and seals an aligned prefix) on every append.
        var commitInterval: Double
        var pieces: ClosedRange<Int>
        /// Close after this many bytes and continue with a new pipeline from the durable journal.
        var resumeAt: Int?

        var testDescription: String {
            "\(directIO ? "O_DIRECT" : "buffered"), interval \(commitInterval), pieces \(pieces)"
                + (resumeAt.map { ", resume at \($0)" } ?? "")
        }
    }

    static let chunkSize: Int64 = 1 << 20
    static let total = 3 * (1 << 20) + 12_345

    static let cases: [Case] = [
        Case(directIO: true, commitInterval: 10, pieces: 1...600_000),
        Case(directIO: true, commitInterval: 0, pieces: 1...70_000),
        Case(directIO: true, commitInterval: 0, pieces: 1...5_000, resumeAt: 1_234_567),
        Case(directIO: true, commitInterval: 10, pieces: 100_000...300_000, resumeAt: 3 << 20),
        Case(directIO: false, commitInterval: 10, pieces: 1...600_000),
        Case(directIO: false, commitInterval: 0, pieces: 1...70_000, resumeAt: 2_345_678),
    ]

    @Test(arguments: cases)
    func fileAndJournalHoldExactlyTheBytesAppended(_ c: Case) throws {
        let directory = try TemporaryDirectory("write-pipeline")
        defer { directory.remove() }
        var generator = TestRandom(seed: 7)
        let content = Self.bytes(Self.total, using: &generator)
        let staging = try StagingFile(directory: directory.path, name: "file", directIO: c.directIO)
        try staging.openPart()
        #expect((staging.directFD >= 0) == c.directIO, "O_DIRECT must really be in use on the test file system")
        var journal = Journal.empty(key: "key", chunkSize: Self.chunkSize)
        journal.length = Int64(Self.total)
        try staging.truncate(to: 0, journal: journal)

        let split = c.resumeAt ?? Self.total
        journal = try append(content[0..<split], to: staging, from: journal, c, using: &generator)
        #expect(journal.committed == Int64(split))
        if split < Self.total {
            journal = try append(content[split...], to: staging, from: journal, c, using: &generator)
        }

        #expect(journal.committed == Int64(Self.total))
        #expect(try staging.size() == Int64(Self.total))
        let onDisk = try bytes(of: staging, count: Self.total)
        if onDisk != content {
            let offset = onDisk.indices.first { onDisk[$0] != content[$0] } ?? 0
            Issue.record("the file differs from the bytes appended at offset \(offset)")
        }
        #expect(SHA256(savedState: journal.hashState)?.finalize() == SHA256.hash(content))
        #expect(journal.checkpoints.count == Self.total / Int(Self.chunkSize))
        for (index, checkpoint) in journal.checkpoints.enumerated() {
            let end = (index + 1) * Int(Self.chunkSize)
            #expect(checkpoint.offset == Int64(end))
            #expect(SHA256(savedState: checkpoint.state)?.finalize() == SHA256.hash(content[0..<end]))
        }
        #expect(staging.readJournal() == journal)
    }

    /// With a consumer of the durable counts (a streaming install), the first chunk is also committed 4 and 6 MiB
    /// past the start, each without waiting for the chunk's end, the commit interval or close.
    @Test func aConsumerGetsEarlyCommitsInTheFirstChunk() throws {
        let directory = try TemporaryDirectory("write-pipeline")
        defer { directory.remove() }
        var generator = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let content = Self.bytes(7 << 20, using: &generator)
        let staging = try StagingFile(directory: directory.path, name: "file", directIO: true)
        try staging.openPart()
        var journal = Journal.empty(key: "key", chunkSize: 8 << 20)
        journal.length = Int64(content.count)
        try staging.truncate(to: 0, journal: journal)
        let reported = Mutex<[Int64]>([])
        let pipeline = WritePipeline(
            staging: staging, durable: journal, commitInterval: 1_000,
            callback: { count in reported.withLock { $0.append(count) } })
        var offset = 0
        for target in WritePipeline.earlyCommits.map(Int.init) + [content.count] {
            while offset < target {
                let count = min(Int.random(in: 1...100_000, using: &generator), target - offset)
                #expect(content[offset..<(offset + count)].withUnsafeBytes { pipeline.append($0) } == nil)
                offset += count
            }
            guard target < content.count else { break }
            try Poll.until("a durable count of \(target) before close (seed \(generator.seed))") {
                reported.withLock { ($0.last ?? 0) >= Int64(target) }
            }
        }
        let (durable, failure) = pipeline.close()
        #expect(failure == nil)
        #expect(durable.committed == Int64(content.count))
        #expect(try bytes(of: staging, count: content.count) == content)
    }

    /// Feeds `bytes` in random pieces through one pipeline; returns the durable journal. Every committed count
    /// reported must already be in the file with the right bytes.
    private func append(
        _ bytes: ArraySlice<UInt8>, to staging: StagingFile, from journal: Journal, _ c: Case,
        using generator: inout TestRandom
    ) throws -> Journal {
        let reported = Mutex<[Int64]>([])
        let pipeline = WritePipeline(
            staging: staging, durable: journal, commitInterval: c.commitInterval,
            callback: { count in reported.withLock { $0.append(count) } })
        var offset = bytes.startIndex
        while offset < bytes.endIndex {
            let count = min(Int.random(in: c.pieces, using: &generator), bytes.endIndex - offset)
            let failure = bytes[offset..<(offset + count)].withUnsafeBytes { pipeline.append($0) }
            #expect(failure == nil)
            offset += count
        }
        if c.commitInterval == 0 {
            // Every append made a commit due: one becomes durable without waiting for close. (How many depends on
            // timing — the commit thread coalesces posts — so only that one does is asserted.)
            try? Poll.until("a commit before close", timeout: 10, every: 0.001) { !reported.withLock { $0.isEmpty } }
            #expect(!reported.withLock { $0.isEmpty }, "a due commit waited for close")
        }
        let (durable, failure) = pipeline.close()
        #expect(failure == nil)
        let counts = reported.withLock { $0 }
        #expect(counts == counts.sorted() && counts.last == durable.committed)
        return durable
    }

    /// Pseudo-random bytes, eight at a time (cheap even in a debug build: other suites share the test process).
    static func bytes(_ count: Int, using generator: inout TestRandom) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: count)
        result.withUnsafeMutableBytes { raw in
            var offset = 0
            while offset + 8 <= raw.count {
                raw.storeBytes(of: generator.next(), toByteOffset: offset, as: UInt64.self)
                offset += 8
            }
            while offset < raw.count {
                raw[offset] = UInt8(truncatingIfNeeded: generator.next())
                offset += 1
            }
        }
        return result
    }

    private func bytes(of staging: StagingFile, count: Int) throws -> [UInt8] {
        var result = [UInt8](repeating: 0, count: count)
        let complete = try result.withUnsafeMutableBytes { try staging.read(into: $0, at: 0) }
        #expect(complete)
        return result
    }
}
