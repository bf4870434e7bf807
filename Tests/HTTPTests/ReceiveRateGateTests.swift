import DocSyncHTTP
import Testing

/// The pacing policy behind `rate_limit`: a table of chunks and arrival times, and the wait each one earns.
@Suite(.timeLimit(.minutes(5))) struct ReceiveRateGateTests {
    struct Row: Sendable, CustomStringConvertible {
        var limit: Int64
        /// (bytes, arrival time in seconds) in order, and the expected wait after each.
        var chunks: [(bytes: Int, at: Double, wait: Double)]
        var description: String { "limit \(limit): \(chunks.map { "\($0.bytes)@\($0.at)" })" }
    }

    static let rows: [Row] = [
        // Unlimited: never waits.
        Row(limit: 0, chunks: [(65_536, 0, 0), (65_536, 0.001, 0)]),
        // The first chunk is paid for after it arrives: 64 KiB at 64 KiB/s is one second.
        Row(limit: 65_536, chunks: [(65_536, 10, 1)]),
        // On schedule: the second chunk arrives when it is due, and earns its own second.
        Row(limit: 65_536, chunks: [(65_536, 10, 1), (65_536, 11, 1)]),
        // Late (a slow network): no wait beyond what the bytes so far are due.
        Row(limit: 65_536, chunks: [(65_536, 10, 1), (65_536, 14, 0)]),
        // A burst: three chunks at once wait for all three.
        Row(limit: 1 << 20, chunks: [(1 << 19, 0, 0.5), (1 << 19, 0, 1), (1 << 19, 0, 1.5)]),
    ]

    @Test(arguments: rows) func waits(row: Row) {
        var gate = ReceiveRateGate(limit: row.limit)
        for chunk in row.chunks {
            let wait = gate.delay(afterReceiving: chunk.bytes, now: chunk.at)
            #expect(abs(wait - chunk.wait) < 1e-9, "\(row): \(wait) after \(chunk.bytes)@\(chunk.at)")
        }
    }
}
