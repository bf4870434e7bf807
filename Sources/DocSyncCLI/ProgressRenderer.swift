import DocSync
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Draws a one-line progress bar with rate and ETA on standard error when it is a terminal; silent otherwise.
/// Thread-safe: downloads report from their transfer threads.
package final class ProgressRenderer: Sendable {
    private let enabled: Bool
    private let label: String
    private let lastWidth = Mutex<Int>(0)

    package init(label: String, enabled: Bool = isatty(STDERR_FILENO) == 1) {
        self.label = label
        self.enabled = enabled
    }

    package func update(_ progress: DownloadProgress) {
        guard enabled else { return }
        let line = Self.line(label: label, progress: progress, columns: Self.columns())
        lastWidth.withLock { width in
            let padding = String(repeating: " ", count: max(0, width - line.count))
            width = line.count
            write("\r" + line + padding)
        }
    }

    /// Ends the bar's line (call once the download is over).
    package func finish() {
        guard enabled else { return }
        lastWidth.withLock { width in
            if width > 0 { write("\n") }
            width = 0
        }
    }

    /// `label  [#######.....]  42%  210.0 MiB / 500.0 MiB  85.3 MiB/s  ETA 0:03`, fitted to `columns`.
    package static func line(label: String, progress: DownloadProgress, columns: Int) -> String {
        let size = bytes(progress.bytes) + (progress.total.map { " / " + bytes($0) } ?? "")
        let rate = bytes(Int64(progress.rate)) + "/s"
        var eta = ""
        if let total = progress.total, progress.rate > 0 {
            eta = "  ETA " + duration(Double(max(0, total - progress.bytes)) / progress.rate)
        }
        var percent = ""
        var fraction: Double?
        if let total = progress.total, total > 0 {
            fraction = min(1, Double(progress.bytes) / Double(total))
            percent = "  \(Int(fraction! * 100))%"
        }
        let tail = "\(percent)  \(size)  \(rate)\(eta)"
        let name = label.count > 24 ? "…" + label.suffix(23) : label
        let room = columns - name.count - tail.count - 6
        guard let fraction, room >= 10 else { return String((name + tail).prefix(max(columns - 1, 20))) }
        let width = min(room, 40)
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        return "\(name)  [\(bar)]\(tail)"
    }

    static func bytes(_ count: Int64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(count)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(count) B" : String(format1: value) + " " + units[unit]
    }

    static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds < 360_000 else { return "--:--" }
        let s = Int(seconds.rounded())
        let (h, m, r) = (s / 3600, s / 60 % 60, s % 60)
        let two = { (n: Int) in n < 10 ? "0\(n)" : "\(n)" }
        return h > 0 ? "\(h):\(two(m)):\(two(r))" : "\(m):\(two(r))"
    }

    private static func columns() -> Int {
        var size = winsize()
        if ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }

    private func write(_ text: String) {
        _ = text.withCString { Glibc.write(STDERR_FILENO, $0, strlen($0)) }
    }
}

extension String {
    /// One decimal place, without Foundation.
    fileprivate init(format1 value: Double) {
        let tenths = Int((value * 10).rounded())
        self = "\(tenths / 10).\(tenths % 10)"
    }
}
