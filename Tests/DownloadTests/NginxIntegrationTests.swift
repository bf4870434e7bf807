import DocSyncDownload
import DocSyncSupport
import Foundation
import Synchronization
import TestSupport
import Testing

/// Against a real nginx on loopback: the library, the `docsync fetch` binary, SIGKILL and tampering.
@Suite(
    .enabled(if: Nginx.isInstalled, "nginx is not installed (scripts/bootstrap installs it)"),
    .timeLimit(.minutes(10)), .blockingWaits)
struct NginxIntegrationTests {
    /// A fixture whose content nginx serves at `/file.bin`, and at `/slow/file.bin` at `rate` bytes/s.
    private func serve(_ fixture: DownloadFixture, rate: Int = 4 << 20, http2: Bool = false) throws -> Nginx {
        let root = fixture.directory.appending("www")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try Data(fixture.content).write(to: URL(fileURLWithPath: root + "/file.bin"))
        return try Nginx(
            root: root, locations: "location /slow/ { alias \(root)/; limit_rate \(rate); }", http2: http2)
    }

    @Test func fullDownloadWithTheLibrary() async throws {
        let f = try DownloadFixture(size: 12 << 20)
        defer { f.remove() }
        let nginx = try serve(f)
        defer { nginx.stop() }
        let result = try await f.download([nginx.url("file.bin")], sha256: f.sha256)
        #expect(f.outputSHA256 == f.sha256)
        #expect(result.bytes == Int64(f.content.count) && result.resumedFrom == 0 && result.attempts == 1)
        #expect(result.url == nginx.url("file.bin") && result.path == f.destination)
        #expect(nginx.waitForAccessLog { !$0.isEmpty }.map(\.range) == ["-"])
    }

    @Test func fetchPrintsJSONAndUsesTheNextMirror() async throws {
        let f = try DownloadFixture(size: 3 << 20)
        defer { f.remove() }
        let nginx = try serve(f)
        defer { nginx.stop() }
        let dead = "http://127.0.0.1:\(try Loopback.freePort())/file.bin"  // connection refused
        let run = try DocSyncProcess.fetch([
            dead, "--mirror", nginx.url("file.bin"), "--output", f.destination, "--sha256", f.sha256, "--json",
        ])
        #expect(run.status == 0, "\(run.standardError)")
        let object = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any]
        #expect(object?["url"] as? String == dead)
        #expect(object?["mirror"] as? String == nginx.url("file.bin"))
        #expect(object?["bytes"] as? Int == f.content.count)
        #expect(object?["sha256"] as? String == f.sha256)
        #expect(object?["resumed_from"] as? Int == 0)
        #expect((object?["attempts"] as? Int ?? 0) >= 2)
        #expect(object?["seconds"] is Double || object?["seconds"] is Int)
        #expect(f.outputSHA256 == f.sha256)
        // Not a TTY: no progress; the one line is the refused mirror, left for the next (a mirror fault).
        let lines = run.standardError.split(separator: "\n").map(String.init)
        #expect(lines.count == 1, "\(run.standardError)")
        #expect(lines.first?.hasPrefix("docsync fetch: mirror excluded: \(dead): ") == true, "\(lines)")
        #expect(lines.first?.hasSuffix("(transport)") == true && lines.first?.contains("\(dead): \(dead)") == false)
        let faults = object?["mirror_faults"] as? [[String: Any]]
        #expect(faults?.map { $0["url"] as? String } == [dead] && faults?.first?["reason"] as? String == "transport")
    }

    @Test func fetchWithAWrongChecksumLeavesNoFile() async throws {
        let f = try DownloadFixture(size: 1 << 20)
        defer { f.remove() }
        let nginx = try serve(f)
        defer { nginx.stop() }
        let wrong = String(repeating: "0", count: 64)
        let run = try DocSyncProcess.fetch([nginx.url("file.bin"), "--output", f.destination, "--sha256", wrong])
        #expect(run.status == 65)
        #expect(run.standardError.contains(wrong) && run.standardError.contains(f.sha256))
        #expect(!f.outputExists)
    }

    @Test func resumeAfterSIGKILLAndAfterTampering() async throws {
        let f = try DownloadFixture(size: 24 << 20)
        defer { f.remove() }
        let nginx = try serve(f, rate: 6 << 20)
        defer { nginx.stop() }
        let arguments = [nginx.url("slow/file.bin"), "--output", f.destination, "--json", "--connections", "1"]
        let key = nginx.url("slow/file.bin")
        let staging = "\(f.directory.path)/.docsync-staging"
        // Kill once mid-transfer, once more than 1 MiB is durable.
        try killMidTransfer(arguments, staging: staging, committed: (1 << 20) + 1)
        let part = "\(f.directory.path)/.docsync-staging/\(StagingName.forKey(key)).part"
        let size = try #require(FileManager.default.attributesOfItem(atPath: part)[.size] as? Int)
        #expect(size > 1 << 20 && size < f.content.count)
        #expect(!f.outputExists)
        // Kill again after more progress, then flip a byte inside the first chunk: the resume must catch it.
        try killMidTransfer(arguments, staging: staging, committed: Int64(size) + (1 << 20))
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: part))
        try handle.seek(toOffset: 1000)
        handle.write(Data([f.content[1000] ^ 0xFF]))
        try handle.close()
        let run = try DocSyncProcess.fetch(arguments)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(f.outputSHA256 == f.sha256)
        let object = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any]
        #expect(object?["resumed_from"] as? Int == 0)  // the flipped byte sent it back to the first chunk
        // nginx logs a killed client's request when it notices the closed connection: wait for that line.
        #expect(nginx.waitForAccessLog { $0.count >= 3 }.count == 3)
    }

    @Test func resumeAfterSIGKILLKeepsTheDurablePrefix() async throws {
        let f = try DownloadFixture(size: 24 << 20)
        defer { f.remove() }
        let nginx = try serve(f, rate: 6 << 20)
        defer { nginx.stop() }
        let arguments = [nginx.url("slow/file.bin"), "--output", f.destination, "--json", "--connections", "1"]
        try killMidTransfer(arguments, staging: "\(f.directory.path)/.docsync-staging", committed: 2 << 20)
        let run = try DocSyncProcess.fetch(arguments)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(f.outputSHA256 == f.sha256)
        let object = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any]
        let resumedFrom = object?["resumed_from"] as? Int ?? 0
        #expect(resumedFrom > 0)
        let log = nginx.waitForAccessLog { $0.count >= 2 }
        #expect(log.count == 2 && log[1].range == "bytes=\(resumedFrom - 65_536)-")
    }

    @Test func sigkillLoopStaysWithinTheByteBudget() async throws {
        let size = 64 << 20
        let f = try DownloadFixture(size: size, seed: 3)
        defer { f.remove() }
        let rate = 4 << 20
        let nginx = try serve(f, rate: rate)
        defer { nginx.stop() }
        let arguments = [nginx.url("slow/file.bin"), "--output", f.destination, "--connections", "1"]
        var generator = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let seed = "seed \(generator.seed) (DOCSYNC_TEST_SEED=\(generator.seed) replays the kill moments)"
        var kills = 0
        while kills < 20 {
            let process = try DocSyncProcess(fetch: arguments)
            let delay = Double.random(in: 0.2...1.2, using: &generator)
            let deadline = Date().addingTimeInterval(delay)
            while process.process.isRunning, Date() < deadline { usleep(10_000) }  // the kill moment, not a wait
            guard process.process.isRunning else {
                Issue.record("the download finished before 20 kills (\(kills) so far), \(seed)")
                break
            }
            process.kill()
            kills += 1
            #expect(!f.outputExists)
        }
        let run = try DocSyncProcess.fetch(arguments)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(f.outputSHA256 == f.sha256)
        // Each kill may waste the overlap plus one unsynced interval: the CLI commits every 0.25 s or 8 MiB; allow
        // 1 s of transfer for that, the commit's own sync time and process start-up.
        let interval = min(8 << 20, rate)
        let served = nginx.waitForAccessLog { $0.count >= kills + 1 }.reduce(Int64(0)) { $0 + $1.bodyBytesSent }
        let budget = Int64(size + kills * (65_536 + interval))
        #expect(served <= budget, "served \(served) bytes, budget \(budget), \(seed)")
        #expect(served >= Int64(size))
    }

    @Test func j72RangeResumeOverHTTP2() async throws {
        let f = try DownloadFixture(size: 12 << 20)
        defer { f.remove() }
        let nginx = try serve(f, rate: 4 << 20, http2: true)
        defer { nginx.stop() }
        var configuration = f.configuration()
        configuration.http.httpVersion = .http2PriorKnowledge
        let downloader = Downloader(configuration: configuration)
        // Cancelled from the commit callback itself once 1 MiB is durable: no polling on the cooperative pool, which
        // busy parallel tests can starve until the slow transfer has finished on its own.
        let interruption = Interruption()
        var request = f.request([nginx.url("slow/file.bin")], sha256: f.sha256)
        request.committed = { count in if count >= 1 << 20 { interruption.reached() } }
        let first = request
        interruption.start(BlockingTestExecutor.task { try await downloader.download(first) })
        await #expect(throws: DownloadError.self) { try await interruption.task?.value }
        #expect(!f.outputExists)
        request.alternates = [nginx.url("file.bin")]
        let result = try await downloader.download(request)
        #expect(result.resumedFrom >= 1 << 20)
        #expect(f.outputSHA256 == f.sha256)
        let log = nginx.waitForAccessLog { $0.count >= 2 }
        #expect(log.count == 2 && log.allSatisfy { $0.proto == "HTTP/2.0" }, "access log: \(log)")
        #expect(log.last?.status == 206 && log.last?.range == "bytes=\(result.resumedFrom - 65_536)-", "\(log)")
    }

    /// Starts `docsync fetch` and SIGKILLs it as soon as its journal records at least `committed` durable bytes
    /// (the condition itself, polled; up to 60 s on a loaded machine).
    private func killMidTransfer(_ arguments: [String], staging: String, committed: Int64) throws {
        let process = try DocSyncProcess(fetch: arguments)
        try Poll.until("\(committed) durable bytes in the journal", timeout: 60, every: 0.005) {
            !process.process.isRunning || (PartialDownload.list(in: staging).first?.bytes ?? 0) >= committed
        }
        #expect(process.process.isRunning, "killed mid-transfer, after \(committed) durable bytes")
        process.kill()
    }
}

/// Cancels a download task once its commit callback reports enough, whichever of the two comes first: the task
/// handle being stored or the callback.
private final class Interruption: Sendable {
    private let state = Mutex<(task: Task<DownloadResult, any Error>?, reached: Bool)>((nil, false))

    var task: Task<DownloadResult, any Error>? { state.withLock { $0.task } }

    func start(_ task: Task<DownloadResult, any Error>) {
        let cancelNow = state.withLock { state in
            state.task = task
            return state.reached
        }
        if cancelNow { task.cancel() }
    }

    func reached() {
        let task = state.withLock { state in
            state.reached = true
            return state.task
        }
        task?.cancel()
    }
}
