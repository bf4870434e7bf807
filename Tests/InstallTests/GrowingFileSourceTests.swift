import DocSync
import DocSyncInstall
import DocSyncSupport
import Foundation
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `GrowingFileSource` driven the way the downloader drives it: bytes appended to a partial file, durable counts
/// reported after each append, then a verified end or a failure.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct GrowingFileSourceTests {
    /// Appends to a partial file as a downloader would, reporting each durable count to the source.
    final class FakeDownload: Sendable {
        let fd: Int32
        let source: GrowingFileSource
        private let written = Mutex<Int64>(0)

        init(part: String, source: GrowingFileSource, preallocate: Int64) throws {
            fd = open(part, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            if fd < 0 { throw SystemError("open", path: part) }
            // Zeros past the durable count, as after fallocate: reading beyond it would feed libarchive garbage.
            _ = ftruncate(fd, off_t(preallocate))
            self.source = source
        }

        deinit { close(fd) }

        /// Writes `bytes` in `pieces` on a thread of its own (as libcurl's), committing after each, `pause` µs apart.
        func append(_ bytes: [UInt8], pieces: Int, pause: UInt32 = 5_000) async {
            await withCheckedContinuation { continuation in
                Thread {
                    self.appendBlocking(bytes, pieces: pieces, pause: pause)
                    continuation.resume()
                }.start()
            }
        }

        private func appendBlocking(_ bytes: [UInt8], pieces: Int, pause: UInt32) {
            let step = max(1, bytes.count / pieces)
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + step)
                let offset = written.withLock { $0 }
                _ = bytes[start..<end].withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(offset)) }
                let now = written.withLock {
                    $0 += Int64(end - start)
                    return $0
                }
                source.commit(now)
                start = end
                usleep(pause)
            }
        }

        /// The server's bytes changed: throw the partial away.
        func truncate() {
            _ = ftruncate(fd, 0)
            written.withLock { $0 = 0 }
            source.commit(0)
        }

        var count: Int64 { written.withLock { $0 } }
    }

    /// Polls `condition` until it holds or 30 s pass (a loaded CI machine may be slow; the condition, not a
    /// delay, ends the wait). Returns whether it held.
    static func wait(_ condition: () -> Bool) -> Bool {
        (try? Poll.until("the condition", every: 0.002, condition)) != nil
    }

    static func archive(_ h: InstallHarness, version: String) throws -> (DocsetFixture, [UInt8]) {
        var fixture = try DocsetFixture.make(version: version, documents: 200, bytesPerDocument: 3_000)
        var generator = TestRandom(label: "growing \(version)")
        let blob = (0..<(512 << 10)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        fixture.files["Contents/Resources/Documents/blob.bin"] = (blob, 0o644)
        let path = h.archive("\(version).tgz")
        try fixture.writeArchive(to: path)
        return (fixture, try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
    }

    @Test func readsOnlyDurableBytesAndPublishesOnlyAfterTheVerifiedEnd() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let (fixture, bytes) = try Self.archive(h, version: "1")
        let part = h.archive("x.part")
        let reported = Mutex<Int64>(0)
        let source = GrowingFileSource(partPath: part, finalPath: h.archive("x.archive")) { bytes, _ in
            reported.withLock { $0 = max($0, bytes) }
        }
        let download = try FakeDownload(part: part, source: source, preallocate: Int64(bytes.count) * 2)
        let install = BlockingTestExecutor.task {
            try await h.installer.install(source: source, as: InstallRequest(name: h.name))
        }
        await download.append(bytes, pieces: 40)
        #expect(Self.wait { source.bytesRead > 0 })
        #expect(reported.withLock { $0 } > 0, "extraction progressed before the end")
        #expect(!FileManager.default.fileExists(atPath: h.docsetPath), "nothing published before the verified end")
        source.finish(
            length: download.count, sourceURL: "https://example.org/x.tgz", sha256: SHA256.hash(bytes).description)
        let installed = try await install.value
        #expect(try TreeSnapshot.of(installed.path) == fixture.expectedManifest)
        #expect(installed.sourceURL == "https://example.org/x.tgz")
        #expect(installed.archiveSHA256 == SHA256.hash(bytes).description)
    }

    @Test func aTruncatedPartialRestartsTheExtractionFromByteZero() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        let (_, old) = try Self.archive(h, version: "1")
        let (fixture, new) = try Self.archive(h, version: "2")
        let part = h.archive("x.part")
        let source = GrowingFileSource(partPath: part, finalPath: h.archive("x.archive"))
        let download = try FakeDownload(part: part, source: source, preallocate: 0)
        let first = BlockingTestExecutor.task {
            try await h.installer.install(source: source, as: InstallRequest(name: h.name))
        }
        await download.append(Array(old.prefix(old.count / 2)), pieces: 10)
        #expect(Self.wait { source.bytesRead == download.count }, "extraction read the old half before the truncation")
        download.truncate()
        await #expect(throws: InstallError.self) { try await first.value }
        #expect(source.restartPending)
        #expect(!FileManager.default.fileExists(atPath: h.docsetPath))

        source.rewind()
        let second = BlockingTestExecutor.task {
            try await h.installer.install(source: source, as: InstallRequest(name: h.name))
        }
        await download.append(new, pieces: 10)
        source.finish(length: download.count, sourceURL: nil, sha256: SHA256.hash(new).description)
        let installed = try await second.value
        #expect(try TreeSnapshot.of(installed.path) == fixture.expectedManifest)
        #expect(installed.archiveSHA256 == SHA256.hash(new).description, "the downloader's verified digest")
    }

    @Test func aFailedDownloadFailsTheInstallEvenAfterTheArchiveEnd() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        try await h.installOld()
        let before = try h.snapshot()
        let (_, bytes) = try Self.archive(h, version: "2")
        let part = h.archive("x.part")
        let source = GrowingFileSource(partPath: part, finalPath: h.archive("x.archive"))
        let download = try FakeDownload(part: part, source: source, preallocate: 0)
        let install = BlockingTestExecutor.task {
            try await h.installer.install(source: source, as: InstallRequest(name: h.name))
        }
        await download.append(bytes, pieces: 5)
        // libarchive has read the whole archive (its end included); the install now waits for the verified end.
        #expect(Self.wait { source.bytesRead == Int64(bytes.count) }, "extraction read to the end")
        source.fail("SHA-256 mismatch")
        await #expect(throws: InstallError.self) { try await install.value }
        #expect(source.stopReason == .downloadFailed("SHA-256 mismatch"))
        await h.installer.waitForBackgroundWork()
        #expect(try h.snapshot() == before)
    }

    /// The downloader renames the verified `.part` into `complete/` and only then calls `finish`. A first read that
    /// finds the `.part` gone before `finish` arrives must wait for it and read the final file, whichever way the
    /// two interleave; it used to fail with "durable bytes not there" (EIO) when `finish` landed between the open
    /// and the reader's own check (CI saw it once as `invalid_archive: cannot open ….part` in a 1 KB streaming
    /// install). A race, so it is driven many times, `finish` at a seeded spread of moments around the first read.
    @Test func aRenameToCompleteRacingTheFirstReadIsNeverAnError() throws {
        let dir = try TemporaryDirectory("rename-race")
        defer { dir.remove() }
        let bytes = [UInt8](repeating: 0x5A, count: 1024)
        let final = dir.appending("complete.archive")
        try Data(bytes).write(to: URL(fileURLWithPath: final))
        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let rounds = 3_000
        let delays = (0..<rounds).map { _ in Int.random(in: 0..<6_000, using: &random) }
        let current = Mutex<GrowingFileSource?>(nil)
        let started = Atomic<Int>(-1)  // the round the finisher may start
        let finished = Atomic<Int>(-1)  // the last round the finisher has finished
        let spin = Atomic<Int>(0)
        WorkerThread.start(name: "test-finisher") {
            for round in 0..<rounds {
                while started.load(ordering: .acquiring) < round {}  // spinning: starts with the read
                for _ in 0..<delays[round] { spin.add(1, ordering: .relaxed) }
                let source = current.withLock { $0 }!
                source.finish(length: 1024, sourceURL: nil, sha256: nil)
                finished.store(round, ordering: .releasing)
            }
        }
        var failures: [String] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        for round in 0..<rounds {
            // The `.part` is already gone (renamed), its bytes were committed, `finish` is on its way.
            let source = GrowingFileSource(partPath: dir.appending("gone.part"), finalPath: final)
            source.commit(1024)
            current.withLock { $0 = source }
            started.store(round, ordering: .releasing)
            var read = 0
            do {
                while true {
                    let n = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
                    if n == 0 { break }
                    read += n
                }
                if read != 1024 { failures.append("round \(round): read \(read) bytes") }
            } catch {
                failures.append("round \(round): \(error)")
            }
            while finished.load(ordering: .acquiring) < round { sched_yield() }
        }
        let seed = random.seed
        #expect(failures.count == 0, "\(failures.count) of \(rounds) reads failed, seed \(seed): \(failures.prefix(2))")
    }
}
