/// Holds a transfer to a receive rate: after each body chunk, how long to wait so that the bytes received since the
/// first one never exceed `limit` bytes per second. libcurl's own `CURLOPT_MAX_RECV_SPEED_LARGE` (7.88) lets
/// whatever sits in the socket buffer through at full speed — a 2.5 MiB loopback transfer limited to 1 MiB/s took
/// 0.15 s — so docsync paces the write callback itself; TCP flow control then slows the sender.
package struct ReceiveRateGate: Sendable, Equatable {
    /// Bytes per second; 0 means unlimited.
    package let limit: Int64
    private var start: Double?
    private var received: Int64 = 0

    package init(limit: Int64) { self.limit = limit }

    /// Records `count` bytes received at `now` (seconds, monotonic) and returns the seconds to wait before taking
    /// more (0 when on schedule or unlimited).
    package mutating func delay(afterReceiving count: Int, now: Double) -> Double {
        guard limit > 0 else { return 0 }
        let first = start ?? now
        start = first
        received += Int64(count)
        let due = Double(received) / Double(limit)
        return max(0, due - (now - first))
    }
}
