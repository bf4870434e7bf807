import DocSyncDownload
import Foundation
import Synchronization
import TestSupport
import Testing

/// `HTTPOptions.maxReceiveRate` (the `rate_limit` key) against a real nginx transfer: the rate the downloader
/// measures itself (bytes / elapsed, also in every progress report) stays within 10 % of the limit.
///
/// The upper bound is strict: a limit the downloader exceeds is a bug, and load can only slow a transfer. The lower
/// bound (not far stricter than asked) is checked only when the machine is fast enough to judge it: the same file
/// fetched without a limit, just before, must arrive at 3× the limit or more. In a full parallel run on a loaded
/// 2-core CI machine a limited 2.5 MiB transfer was measured at 0.4 MiB/s (CPU starvation of the write pipeline and
/// the test process, not the pacing); then the lower bound is skipped with a printed line.
@Suite(
    .enabled(if: Nginx.isInstalled, "nginx is not installed (scripts/bootstrap installs it)"),
    .timeLimit(.minutes(10)), .blockingWaits)
struct RateLimitTests {
    @Test func theMeasuredRateStaysWithinTenPercentOfTheLimit() async throws {
        let limit: Int64 = 1 << 20
        let f = try DownloadFixture(size: 5 << 19, seed: 7)  // 2.5 MiB: about 2.5 s at the limit
        defer { f.remove() }
        let root = f.directory.appending("www")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try Data(f.content).write(to: URL(fileURLWithPath: root + "/file.bin"))
        let nginx = try Nginx(root: root)
        defer { nginx.stop() }
        // The anchor: the same transfer without a limit, in this run.
        let anchor = try await Downloader(configuration: f.configuration())
            .download(f.request([nginx.url("file.bin")], key: "anchor", sha256: f.sha256))
        try FileManager.default.removeItem(atPath: f.destination)
        let unlimited = Double(anchor.bytes) / anchor.seconds
        var configuration = f.configuration()
        configuration.http.maxReceiveRate = limit
        let reports = Mutex<[DownloadProgress]>([])
        let result = try await Downloader(configuration: configuration)
            .download(f.request([nginx.url("file.bin")], sha256: f.sha256)) { progress in
                reports.withLock { $0.append(progress) }
            }
        #expect(f.outputSHA256 == f.sha256 && result.attempts == 1)
        let rate = Double(result.bytes) / result.seconds
        let text = "\(Int(rate)) B/s over \(result.seconds) s, limit \(limit) B/s"
        #expect(rate <= Double(limit) * 1.1, "never above the limit + 10 %: \(text)")
        print("RateLimitTests: \(text); unlimited \(Int(unlimited)) B/s")
        if unlimited >= Double(limit) * 3 {
            #expect(rate >= Double(limit) * 0.9, "not far below the limit: \(text); unlimited \(Int(unlimited)) B/s")
        } else {
            print("RateLimitTests: lower bound not checked (the machine is too loaded to judge it)")
        }
        // After the first second (libcurl may take its first buffer at once), no report shows a higher rate.
        let late = reports.withLock { $0 }.filter { $0.bytes >= limit }
        #expect(!late.isEmpty)
        #expect(late.allSatisfy { $0.rate <= Double(limit) * 1.1 }, "\(late.map { Int($0.rate) })")
    }
}
