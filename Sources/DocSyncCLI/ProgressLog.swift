/// When a non-terminal progress log prints a line, and at what rate: at most one line per 10 s unless the
/// download crossed another 10 % (never more than one per second), with the rate measured over the last 10 s
/// rather than since the start (a slow start or a stall must not colour the whole download). Pure: times are
/// seconds on any monotonic clock.
struct ProgressLog {
    static let interval = 10.0
    static let step = 0.10
    static let minimumGap = 1.0
    static let window = 10.0

    private var samples: [(time: Double, bytes: Int64)] = []
    private var lastLine: (time: Double, fraction: Double)?

    /// Records a progress report; true when a line is due.
    mutating func record(bytes: Int64, total: Int64?, at time: Double) -> Bool {
        samples.append((time, bytes))
        if let first = samples.first, samples.count > 2, time - first.time > Self.window {
            samples.removeAll { time - $0.time > Self.window }
        }
        let fraction = total.map { $0 > 0 ? Double(bytes) / Double($0) : 0 } ?? 0
        guard let last = lastLine else {
            lastLine = (time, fraction)
            return true
        }
        let gap = time - last.time
        let nextStep = (last.fraction / Self.step).rounded(.down) * Self.step + Self.step
        guard gap >= Self.interval || (gap >= Self.minimumGap && total != nil && fraction >= nextStep - 1e-9)
        else { return false }
        lastLine = (time, fraction)
        return true
    }

    /// Bytes per second over the recent window (nil until two samples span some time).
    var recentRate: Double? {
        guard let first = samples.first, let last = samples.last, last.time > first.time else { return nil }
        return Double(last.bytes - first.bytes) / (last.time - first.time)
    }
}
