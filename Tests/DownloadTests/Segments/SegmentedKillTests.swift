import DocSyncSupport
import Foundation
import TestSupport
import Testing

@testable import DocSyncDownload

/// SIGKILL anywhere in a segmented `docsync fetch` (4 connections over nginx with a per-connection rate limit):
/// every resume continues each segment where it was durable, with the overlap check at every resumed segment start.
@Suite(
    .enabled(if: Nginx.isInstalled, "nginx is not installed (scripts/bootstrap installs it)"),
    .serialized, .timeLimit(.minutes(10)), .blockingWaits)
struct SegmentedKillTests {
    @Test func sigkillLoopWithFourConnectionsStaysWithinTheByteBudget() async throws {
        let size = 48 << 20  // the CLI's 16 MiB minimum segment: three segments, and a steal for the fourth
        let connections = 4
        let rate = 1 << 20
        var generator = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        let seed = "\(generator.seed) (DOCSYNC_TEST_SEED=\(generator.seed) replays the kill moments)"
        let f = try DownloadFixture(size: size, seed: 31)
        defer { f.remove() }
        let root = f.directory.appending("www")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try Data(f.content).write(to: URL(fileURLWithPath: root + "/file.bin"))
        let nginx = try Nginx(root: root, locations: "location /slow/ { alias \(root)/; limit_rate \(rate); }")
        defer { nginx.stop() }
        let arguments = [nginx.url("slow/file.bin"), "--output", f.destination, "--connections", "\(connections)"]
        let staging = f.directory.appending(".docsync-staging")  // fetch's default: next to the output
        var kills = 0
        while kills < 20 {
            let process = try DocSyncProcess(fetch: arguments)
            if kills == 0 {
                // The first run hands over to segments after its first bytes: killed once its segment journal shows
                // two segments with durable bytes (a deadline that fails loudly if it never does).
                try Poll.until("a segment journal with two segments in progress (seed \(seed))", timeout: 120) {
                    !process.process.isRunning || Self.segmentsInProgress(staging: staging) >= 2
                }
            } else {
                let deadline = Date().addingTimeInterval(Double.random(in: 0.2...0.6, using: &generator))
                while process.process.isRunning, Date() < deadline { usleep(10_000) }
            }
            guard process.process.isRunning else {
                Issue.record("the download finished before 20 kills (\(kills) so far; seed \(seed))")
                break
            }
            process.kill()
            kills += 1
            #expect(!f.outputExists, "seed \(seed)")
        }
        let run = try DocSyncProcess.fetch(arguments)
        #expect(run.status == 0, "\(run.standardError) (seed \(seed))")
        #expect(f.outputSHA256 == f.sha256, "seed \(seed)")
        let log = nginx.accessLog()
        #expect(log.contains { $0.range.contains("-") && !$0.range.hasSuffix("-") }, "closed segment ranges")
        // Each kill may waste, per connection, the overlap plus one unsynced interval (a commit every 0.25 s or
        // chunk; allow 1 s of transfer for the commit's own sync time and process start-up).
        let served = log.reduce(Int64(0)) { $0 + $1.bodyBytesSent }
        let budget = Int64(size + kills * connections * (65_536 + rate))
        #expect(served <= budget, "served \(served) bytes, budget \(budget) (seed \(seed))")
        #expect(served >= Int64(size))
    }

    /// Segments of the version-2 journal in `staging` with durable bytes (0 while there is none).
    private static func segmentsInProgress(staging: String) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: staging)) ?? []
        return names.filter { $0.hasSuffix(".journal") }.compactMap { name in
            FileManager.default.contents(atPath: "\(staging)/\(name)").flatMap { SegmentJournal(decoding: [UInt8]($0)) }
        }.map { $0.extents.filter { $0.done > $0.start }.count }.max() ?? 0
    }
}
