import Testing

@testable import DocSyncCLI

/// Non-terminal progress: a line at most every 10 s or 10 %, with the rate over the last 10 s.
@Suite(.timeLimit(.minutes(5)))
struct ProgressLogTests {
    /// (seconds, bytes) reports of a 1000-byte download and the times at which a line is printed.
    @Test func linesComeEvery10SecondsOrEvery10Percent() {
        var log = ProgressLog()
        var printed: [Double] = []
        // Slow: 1 byte per second for 30 s (no 10 % step), then fast: 100 bytes per second.
        for t in 0...30 where log.record(bytes: Int64(t), total: 1000, at: Double(t)) { printed.append(Double(t)) }
        #expect(printed == [0, 10, 20, 30])
        printed = []
        for t in 31...40 where log.record(bytes: Int64(30 + (t - 30) * 100), total: 1000, at: Double(t)) {
            printed.append(Double(t))
        }
        #expect(printed == [31, 32, 33, 34, 35, 36, 37, 38, 39, 40], "each second crosses a 10 % step")
    }

    @Test func aBurstOfReportsPrintsAtMostOneLinePerSecond() {
        var log = ProgressLog()
        var lines = 0
        for i in 0..<100 where log.record(bytes: Int64(i * 10), total: 1000, at: Double(i) * 0.01) { lines += 1 }
        #expect(lines == 1)
    }

    @Test func withoutATotalOnlyTimeCounts() {
        var log = ProgressLog()
        var printed: [Int] = []
        for t in 0...25 where log.record(bytes: Int64(t) * 1_000_000, total: nil, at: Double(t)) { printed.append(t) }
        #expect(printed == [0, 10, 20])
    }

    @Test func theRateIsTheRecentOneNotTheStartUpRate() throws {
        var log = ProgressLog()
        // 60 s at 1 KB/s, then 20 s at 100 KB/s: the rate reported is the recent 100 KB/s.
        var bytes: Int64 = 0
        for t in 0...80 {
            _ = log.record(bytes: bytes, total: nil, at: Double(t))
            bytes += t < 60 ? 1000 : 100_000
        }
        let rate = try #require(log.recentRate)
        #expect(abs(rate - 100_000) < 1, "\(rate)")
    }
}
