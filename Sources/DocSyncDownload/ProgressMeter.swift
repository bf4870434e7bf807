#if canImport(Glibc)
    import Glibc
#endif

/// Counts received bytes over a whole download and throttles progress callbacks to a few per second.
final class ProgressMeter {
    private let callback: (@Sendable (DownloadProgress) -> Void)?
    private let start = ProgressMeter.now()
    private var lastReport = 0.0
    private(set) var received: Int64 = 0

    init(callback: (@Sendable (DownloadProgress) -> Void)?) { self.callback = callback }

    func received(_ count: Int) { received += Int64(count) }

    var elapsed: Double { Self.now() - start }

    func report(bytes: Int64, total: Int64?, force: Bool = false) {
        guard let callback else { return }
        let now = Self.now()
        guard force || now - lastReport >= 0.1 else { return }
        lastReport = now
        let seconds = now - start
        callback(DownloadProgress(bytes: bytes, total: total, rate: seconds > 0 ? Double(received) / seconds : 0))
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
