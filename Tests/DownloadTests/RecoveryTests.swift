import DocSyncDownload
import DocSyncSupport
import Foundation
import Synchronization
import TestSupport
import Testing

/// What a restart keeps of a partial (checklist A): only bytes the journal vouches for and that still hash right.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct RecoveryTests {
    /// P after the interrupted first run: 2.5 chunks (checkpoints at 1 MiB and 2 MiB).
    static let p = 5 << 19
    static let w = 65_536

    /// Leaves a partial of P bytes in `fixture`'s staging directory, as a dropped connection would.
    private func interrupt(_ fixture: DownloadFixture, key: String = "docset/1.0", url path: String = "file")
        async throws
    {
        let content = fixture.content
        let server = try FaultServer { request, _ in FaultResponse.serve(content, to: request).closing(after: Self.p) }
        defer { server.stop() }
        await #expect(throws: DownloadError.self) {
            try await fixture.download([server.url(path)], key: key, maxAttempts: 1)
        }
        #expect(!fixture.outputExists)
    }

    /// Finishes the download against a conforming server; returns the first request's Range header.
    private func resume(_ fixture: DownloadFixture, key: String = "docset/1.0", url path: String = "file") async throws
        -> String?
    {
        let content = fixture.content
        let server = try FaultServer { request, _ in FaultResponse.serve(content, to: request) }
        defer { server.stop() }
        let result = try await fixture.download([server.url(path)], key: key)
        #expect(fixture.outputSHA256 == fixture.sha256)
        #expect(result.sha256 == fixture.sha256)
        return server.requests.first?.header("Range")
    }

    private func modify(_ path: String, _ change: (FileHandle) throws -> Void) throws {
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try change(handle)
    }

    @Test func resumesFromTheCommittedCount() async throws {
        let f = try DownloadFixture()
        defer { f.remove() }
        try await interrupt(f)
        #expect(try await resume(f) == "bytes=\(Self.p - Self.w)-")
    }

    @Test func a1SameKeyNewSignedURLResumes() async throws {
        let f = try DownloadFixture()
        defer { f.remove() }
        try await interrupt(f, url: "file?signature=one")
        #expect(try await resume(f, url: "file?signature=two") == "bytes=\(Self.p - Self.w)-")
    }

    @Test func a1DifferentKeyGetsAFreshStagingFile() async throws {
        let f = try DownloadFixture()
        defer { f.remove() }
        try await interrupt(f, key: "docset/1.0")
        #expect(try await resume(f, key: "docset/2.0") == nil)
    }

    @Test func a3JunkAfterPIsTruncated() async throws {
        let f = try DownloadFixture()
        defer { f.remove() }
        try await interrupt(f)
        try modify(f.stagingPath("docset/1.0", "part")) { handle in
            handle.seekToEndOfFile()
            handle.write(Data(repeating: 0xAB, count: 300_000))
        }
        #expect(try await resume(f) == "bytes=\(Self.p - Self.w)-")
    }

    @Test func a4FileShorterThanPResumesFromTheLastGoodChunk() async throws {
        let f = try DownloadFixture()
        defer { f.remove() }
        try await interrupt(f)
        try modify(f.stagingPath("docset/1.0", "part")) { try $0.truncate(atOffset: UInt64(3 << 19)) }
        #expect(try await resume(f) == "bytes=\((1 << 20) - Self.w)-")
    }

    @Test func a5MissingJournalDiscardsThePartial() async throws {
        let f = try DownloadFixture()
        defer { f.remove() }
        try await interrupt(f)
        try FileManager.default.removeItem(atPath: f.stagingPath("docset/1.0", "journal"))
        #expect(try await resume(f) == nil)
    }

    @Test func a5CorruptJournalDiscardsThePartial() async throws {
        let f = try DownloadFixture()
        defer { f.remove() }
        try await interrupt(f)
        try modify(f.stagingPath("docset/1.0", "journal")) { handle in
            try handle.seek(toOffset: 40)
            let byte = handle.readData(ofLength: 1)[0]
            try handle.seek(toOffset: 40)
            handle.write(Data([byte ^ 0x01]))
        }
        #expect(try await resume(f) == nil)
    }

    @Test func a6MissingPartialResetsTheJournal() async throws {
        let f = try DownloadFixture()
        defer { f.remove() }
        try await interrupt(f)
        try FileManager.default.removeItem(atPath: f.stagingPath("docset/1.0", "part"))
        #expect(try await resume(f) == nil)
    }

    @Test func a7FlippedByteBelowPRefetchesFromThatChunk() async throws {
        let f = try DownloadFixture()
        defer { f.remove() }
        try await interrupt(f)
        try modify(f.stagingPath("docset/1.0", "part")) { handle in
            try handle.seek(toOffset: UInt64(3 << 19))
            handle.write(Data([f.content[3 << 19] ^ 0x40]))
        }
        #expect(try await resume(f) == "bytes=\((1 << 20) - Self.w)-")
    }

    @Test func a8ZeroedTailBelowPIsCaught() async throws {
        let f = try DownloadFixture()
        defer { f.remove() }
        try await interrupt(f)
        try modify(f.stagingPath("docset/1.0", "part")) { handle in
            try handle.seek(toOffset: UInt64(Self.p - 65_536))
            handle.write(Data(repeating: 0, count: 65_536))
        }
        #expect(try await resume(f) == "bytes=\((2 << 20) - Self.w)-")
    }

    @Test func a9SecondDownloaderOnTheSameKeyIsRefused() async throws {
        let f = try DownloadFixture()
        defer { f.remove() }
        let content = f.content
        let server = try FaultServer { request, _ in
            var response = FaultResponse.serve(content, to: request)
            response.stall = (1 << 20, 2)
            return response
        }
        defer { server.stop() }
        let first = BlockingTestExecutor.task { try await f.download([server.url()], maxAttempts: 1) }
        // Once the first request arrived, the first downloader holds the partial's lock.
        try await Poll.until("the first downloader's request", timeout: 30) { () async in
            !server.requests.isEmpty
        }
        do {
            _ = try await f.download([server.url()])
            Issue.record("the second downloader was not refused")
        } catch {
            #expect(error.kind == .locked)
        }
        _ = await first.result
        #expect(!f.outputExists)
    }

    @Test func committedCountsNeverExceedWhatIsOnDisk() async throws {
        let f = try DownloadFixture()
        defer { f.remove() }
        let content = f.content
        let server = try FaultServer { request, _ in FaultResponse.serve(content, to: request) }
        defer { server.stop() }
        let seen = Mutex<[Int64]>([])
        let partPath = f.stagingPath("docset/1.0", "part")
        let overran = Mutex(false)
        var request = f.request([server.url()])
        request.committed = { count in
            let size = (try? FileManager.default.attributesOfItem(atPath: partPath)[.size] as? Int64) ?? nil
            if let size, size < count { overran.withLock { $0 = true } }
            seen.withLock { $0.append(count) }
        }
        _ = try await Downloader(configuration: f.configuration()).download(request)
        let counts = seen.withLock { $0 }
        #expect(counts.last == Int64(content.count))
        #expect(counts == counts.sorted())
        #expect(!overran.withLock { $0 })
        #expect(f.outputSHA256 == f.sha256)
    }

    @Test func a13InterruptedFinalizeIsRedoneWithoutARequest() async throws {
        let f = try DownloadFixture()
        defer { f.remove() }
        let content = f.content
        let server = try FaultServer { request, _ in FaultResponse.serve(content, to: request) }
        defer { server.stop() }
        // The destination's directory is missing: every byte is durable (P == L) but the rename fails.
        var request = f.request([server.url()], sha256: f.sha256)
        request.destination = f.directory.appending("missing/out.bin")
        let downloader = Downloader(configuration: f.configuration())
        await #expect(throws: DownloadError.self) { try await downloader.download(request) }
        let journal = f.stagingPath("docset/1.0", "journal")
        let saved = try Data(contentsOf: URL(fileURLWithPath: journal))
        // B20: P == L sends no request, only the finalize is redone.
        try FileManager.default.createDirectory(
            atPath: f.directory.appending("missing"), withIntermediateDirectories: true)
        let finished = try await downloader.download(request)
        #expect(server.requests.count == 1)
        #expect(finished.sha256 == f.sha256 && finished.resumedFrom == Int64(content.count))
        // Killed after the rename but before the journal was removed: the destination is recognised as done.
        try saved.write(to: URL(fileURLWithPath: journal))
        let again = try await downloader.download(request)
        #expect(again.sha256 == f.sha256 && again.attempts == 0)
        #expect(server.requests.count == 1)
        #expect(!FileManager.default.fileExists(atPath: journal))
    }
}
