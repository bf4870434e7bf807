import DocSync
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Prints sync events for people: result lines on standard output; on a terminal, one live line per active docset
/// (bytes, rate, ETA) and a total on standard error, redrawn in place; on a pipe, plain progress log lines every
/// 10 s. Colour only on a terminal and only when `NO_COLOR` is unset.
final class SyncReporter {
    private let live: Bool
    private let color: Bool
    private var active: [String: DocsetProgress] = [:]
    /// Archive bytes extracted so far, per docset (streaming installs extract while downloading).
    private var extracted: [String: DocsetProgress] = [:]
    private var order: [String] = []
    private var drawnLines = 0
    private var lastDraw = ContinuousClock.now - .seconds(1)
    private var logs: [String: ProgressLog] = [:]
    private let epoch = ContinuousClock.now

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        live = isatty(STDERR_FILENO) == 1 && environment["TERM"] != "dumb"
        color = isatty(STDOUT_FILENO) == 1 && environment["NO_COLOR"].map(\.isEmpty) ?? true
    }

    func handle(_ event: SyncEvent, dryRun: Bool) {
        switch event.redactingCredentials.escapingControlCharacters {
        case .feedChecked(let feed, let source, let docsets):
            say("feed      \(feed): \(source.rawValue), \(docsets) docset\(docsets == 1 ? "" : "s")", dim: true)
        case .feedFailed(let feed, let failure):
            var detail = failure
            if detail.url == feed { detail.url = nil }  // the line names the feed already
            say("\(paint("feed failed", 31)) \(feed): \(detail)")
        case .feedWarning(_, let message):
            say("\(paint("warning  ", 33)) \(message)")
        case .planned(let actions):
            guard dryRun else { return }
            for action in actions { say("plan      \(describe(action))") }
        case .progress(let progress):
            track(progress)
        case .installed(let report):
            finish(report.name)
            say("\(paint("installed", 32)) \(report.name) \(version(report))")
        case .updated(let report, let from):
            finish(report.name)
            say("\(paint("updated  ", 32)) \(report.name) \(from) → \(version(report))")
        case .unchanged(let name, let version):
            say("unchanged \(name) \(version)", dim: true)
        case .removed(let name):
            say("\(paint("removed  ", 33)) \(name)")
        case .orphaned(let name):
            say("\(paint("orphaned ", 33)) \(name): no feed offers it any more (set prune = true to remove)")
        case .skipped(let name, let reason):
            say("\(paint("skipped  ", 33)) \(name): \(reason)")
        case .failed(let name, let failure):
            finish(name)
            say("\(paint("failed   ", 31)) \(name): \(failure)")
        case .hookFailed(let name, let failure):
            say("\(paint("failed   ", 31)) \(name): installed, but \(failure)")
        case .warning(let name, let message):
            say("\(paint("warning  ", 33)) \(name): \(message)")
        case .indexed(let name, _, let entries):
            say("indexed   \(name): \(entries) entr\(entries == 1 ? "y" : "ies")", dim: true)
        case .indexFailed(let name, let reason):
            say("\(paint("index failed", 31)) \(name): \(reason)")
        case .alternateFault(let name, let url, let reason, let message):
            say("\(paint("mirror   ", 33)) \(name): excluded \(url): \(message) (\(reason))")
        case .summary(let s):
            clearLive()
            let text = Self.summaryText(s)
            say(s.isSuccess ? text : paint(text, 31))
        }
    }

    /// `1 installed, 0 updated, … (2.3 s)`: the summary line, also the daemon's log line per cycle.
    static func summaryText(_ s: SyncSummary) -> String {
        "\(s.installed) installed, \(s.updated) updated, \(s.unchanged) unchanged, \(s.removed) removed, "
            + "\(s.failed) failed, \(s.feedsFailed) feed\(s.feedsFailed == 1 ? "" : "s") failed "
            + "(\(DurationText.text(seconds: s.seconds)))"
    }

    private func describe(_ a: PlannedAction) -> String {
        let version = a.version ?? "-"
        let url = a.url.map { " from \($0)" } ?? ""
        return switch a.action {
        case .install: "install   \(a.name) \(version)\(url)"
        case .update: "update    \(a.name) \(a.from ?? "-") → \(version)\(url)"
        case .unchanged: "unchanged \(a.name) \(version)"
        case .remove: "remove    \(a.name)"
        case .orphan: "orphan    \(a.name)"
        case .skip: "skip      \(a.name): \(a.reason ?? "")"
        }
    }

    private func version(_ docset: InstalledDocset) -> String {
        [docset.version, docset.revision].compactMap { $0 }.joined(separator: "/")
    }

    private func track(_ progress: DocsetProgress) {
        if progress.phase == .installing {
            extracted[progress.name] = progress
            guard active[progress.name] != nil else { return }
        } else {
            if active[progress.name] == nil { order.append(progress.name) }
            active[progress.name] = progress
        }
        guard let progress = active[progress.name] else { return }
        let now = ContinuousClock.now
        if live {
            if now - lastDraw >= .milliseconds(200) {
                lastDraw = now
                draw()
            }
        } else {
            let seconds = Double((now - epoch) / .milliseconds(1)) / 1000
            var log = logs[progress.name] ?? ProgressLog()
            let due = log.record(bytes: progress.bytes, total: progress.total, at: seconds)
            logs[progress.name] = log
            if due { say("progress  \(line(progress))", dim: true) }
        }
    }

    private func finish(_ name: String) {
        active[name] = nil
        extracted[name] = nil
        order.removeAll { $0 == name }
        logs[name] = nil
    }

    private func line(_ p: DocsetProgress) -> String {
        var p = p
        if let recent = logs[p.name]?.recentRate { p.rate = recent }  // the recent rate, not the start-up rate
        let total = p.total.map { " / \(ProgressRenderer.bytes($0))" } ?? ""
        var eta = ""
        if let t = p.total, p.rate > 0 { eta = "  ETA \(ProgressRenderer.duration(Double(t - p.bytes) / p.rate))" }
        let unpacked = extracted[p.name].map { "  extracted \(ProgressRenderer.bytes($0.bytes))" } ?? ""
        let rate = ProgressRenderer.bytes(Int64(p.rate))
        return "\(p.name)  \(ProgressRenderer.bytes(p.bytes))\(total)  \(rate)/s\(eta)\(unpacked)"
    }

    private func draw() {
        var out = drawnLines > 0 ? "\u{1B}[\(drawnLines)F\u{1B}[J" : ""
        var bytes: Int64 = 0
        var rate = 0.0
        for name in order {
            guard let p = active[name] else { continue }
            out += "  \(line(p))\n"
            bytes += p.bytes
            rate += p.rate
        }
        out += "  total \(ProgressRenderer.bytes(bytes))  \(ProgressRenderer.bytes(Int64(rate)))/s\n"
        drawnLines = order.count + 1
        writeErr(out)
    }

    private func clearLive() {
        guard live, drawnLines > 0 else { return }
        writeErr("\u{1B}[\(drawnLines)F\u{1B}[J")
        drawnLines = 0
    }

    private func say(_ text: String, dim: Bool = false) {
        clearLive()
        printLine(dim && color ? "\u{1B}[2m\(text)\u{1B}[0m" : text)
        if live, !order.isEmpty { draw() }
    }

    private func paint(_ text: String, _ code: Int) -> String { color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }

    private func writeErr(_ text: String) { _ = text.withCString { write(STDERR_FILENO, $0, strlen($0)) } }
}
