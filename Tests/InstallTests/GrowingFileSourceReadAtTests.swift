import DocSyncInstall
import DocSyncSupport
import Foundation
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `GrowingFileSource` read at offsets (`ByteSource.readAt`, what the tarix store's walk and re-encode use while
/// the archive downloads): only durable bytes, waiting for more, failing when the download restarts.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct GrowingFileSourceReadAtTests {
    /// What a reader thread got: its bytes, or the error that stopped it (nil while it runs).
    final class Reader: Sendable {
        let outcome = Mutex<Result<[UInt8], SystemError>?>(nil)

        /// Waits (up to 60 s: a loaded machine) for the reader to end.
        func result() throws -> Result<[UInt8], SystemError> {
            try Poll.until("the reader thread to end", timeout: 60) { outcome.withLock { $0 != nil } }
            return outcome.withLock { $0! }
        }
    }

    /// Reads `source` from offset 0 to its end in `chunk`-byte reads, on a thread of its own (the reads block).
    static func readAll(_ source: GrowingFileSource, chunk: Int) -> Reader {
        let reader = Reader()
        WorkerThread.start(name: "readat test") {
            let result = Result { () throws(SystemError) -> [UInt8] in
                var out: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: chunk)
                while true {
                    let at = Int64(out.count)
                    let read = buffer.withUnsafeMutableBytes { bytes in
                        Result { () throws(SystemError) in try source.readAt(offset: at, into: bytes) }
                    }
                    let n = try read.get()
                    if n == 0 { return out }
                    out += buffer[..<n]
                }
            }
            reader.outcome.withLock { $0 = result }
        }
        return reader
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
        let read = try reader.result().get()
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
        try Poll.until("the reader to read the 10,000 durable bytes", timeout: 60) {
            source.bytesRead == 10_000
        }
        download.truncate()
        switch try reader.result() {
        case .success(let read): Issue.record("the reader ended after \(read.count) bytes instead of failing")
        case .failure(let error): #expect(error.code == ERESTART, "\(error)")
        }
        #expect(source.restartPending)
        #expect(throws: SystemError.self) { try source.awaitVerifiedEnd() }
        source.rewind()
        #expect(!source.restartPending)
    }
}
