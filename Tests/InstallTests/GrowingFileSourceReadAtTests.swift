import DocSyncInstall
import DocSyncSupport
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `GrowingFileSource` read at offsets (`ByteSource.readAt`, what the tarix store's walk and re-encode use while
/// the archive downloads): only durable bytes, waiting for more, failing when the download restarts.
@Suite(.timeLimit(.minutes(10))) struct GrowingFileSourceReadAtTests {
    /// Reads `source` from offset 0 to its end in `chunk`-byte reads, on a task of its own.
    static func readAll(_ source: GrowingFileSource, from start: Int64 = 0, chunk: Int) -> Task<[UInt8], any Error> {
        Task.detached {
            var out: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: chunk)
            while true {
                let at = start + Int64(out.count)
                let n = try buffer.withUnsafeMutableBytes { try source.readAt(offset: at, into: $0) }
                if n == 0 { return out }
                out += buffer[..<n]
            }
        }
    }

    @Test func readsOnlyDurableBytesAndWaitsForTheVerifiedEnd() async throws {
        let dir = try TemporaryDirectory("readat")
        defer { dir.remove() }
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let bytes = (0..<300_000).map { _ in UInt8.random(in: 0...255, using: &random) }
        let part = dir.appending("a.part")
        let source = GrowingFileSource(partPath: part, finalPath: dir.appending("a"))
        // Zeros past the durable count (preallocated): a read past it would return them.
        let download = try GrowingFileSourceTests.FakeDownload(part: part, source: source, preallocate: 1 << 20)
        let reader = Self.readAll(source, chunk: 7_001)
        await download.append(bytes, pieces: 40, pause: 2_000)
        source.finish(length: Int64(bytes.count), sourceURL: nil, sha256: nil)
        let read = try await reader.value
        #expect(read == bytes, "seed \(random.seed): \(read.count) bytes read of \(bytes.count)")
        try source.awaitVerifiedEnd()  // read to the end through readAt
        #expect(source.bytesRead == Int64(bytes.count))
    }

    @Test func aTruncatedPartialStopsTheReaderForARestart() async throws {
        let dir = try TemporaryDirectory("readat")
        defer { dir.remove() }
        let part = dir.appending("a.part")
        let source = GrowingFileSource(partPath: part, finalPath: dir.appending("a"))
        let download = try GrowingFileSourceTests.FakeDownload(part: part, source: source, preallocate: 1 << 20)
        await download.append([UInt8](repeating: 7, count: 10_000), pieces: 2)
        let reader = Self.readAll(source, chunk: 4_096)  // reads 10,000 bytes, then waits for more
        #expect(GrowingFileSourceTests.wait { source.bytesRead == 10_000 })
        download.truncate()
        do {
            let read = try await reader.value
            Issue.record("the reader ended after \(read.count) bytes instead of failing")
        } catch let error as SystemError {
            #expect(error.code == ERESTART, "\(error)")
        }
        #expect(source.restartPending)
        #expect(throws: SystemError.self) { try source.awaitVerifiedEnd() }
        source.rewind()
        #expect(!source.restartPending)
    }
}
