import DocSync
import Foundation

/// What `status` says about activity: a sync in progress (pid, since when), the last run even when it was
/// interrupted (when, how it ended), and partial downloads (bytes, age).
struct StatusActivity {
    let running: SyncExclusion.Holder?
    let lastRun: RunRecord?
    let now: Date

    init(stateDirectory: String, now: Date = Date()) {
        running = SyncExclusion.holder(stateDirectory: stateDirectory)
        lastRun = RunRecord.load(stateDirectory: stateDirectory)
        self.now = now
    }

    /// `in progress`, `ok`, `failed`, `interrupted` or `error`.
    var lastRunState: String? {
        guard let lastRun else { return nil }
        if let outcome = lastRun.outcome { return outcome.rawValue }
        return running?.pid == lastRun.pid ? "in progress" : "interrupted"
    }

    var lines: [String] {
        var out: [String] = []
        if let running {
            let since = running.since.map { " since \(Self.iso($0)) (\(Self.age($0, now: now)) ago)" } ?? ""
            out.append("Sync in progress: pid \(running.pid)\(since)")
        }
        if let lastRun, let state = lastRunState, state != "in progress" {
            var line = "Last run: started \(Self.iso(lastRun.startedAt))"
            switch state {
            case "interrupted" where lastRun.outcome == nil:
                line += ", did not finish (killed or the machine stopped); the next sync resumes its downloads"
            case "interrupted":
                line += ", interrupted after \(Self.duration(lastRun))"
                    + "; the next sync resumes its downloads"
            default:
                line += ", finished \(state) after \(Self.duration(lastRun))"
                if let detail = lastRun.detail { line += ": \(detail.redactingCredentials.escapingControlCharacters)" }
            }
            out.append(line)
        }
        return out
    }

    /// One partial download: `url` (already made safe to print), bytes, and how long ago it last made progress.
    static func partialLine(_ p: PartialDownload, url: String, now: Date) -> String {
        let total = p.total.map { " of \(ProgressRenderer.bytes($0))" } ?? ""
        let updated = p.updatedAt.map { ", last progress \(Self.age($0, now: now)) ago" } ?? ""
        return "  \(url)  \(ProgressRenderer.bytes(p.bytes))\(total)\(updated)"
    }

    static func iso(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }

    static func age(_ date: Date, now: Date) -> String {
        DurationText.text(seconds: now.timeIntervalSince(date))
    }

    static func duration(_ record: RunRecord) -> String {
        DurationText.text(seconds: (record.finishedAt ?? record.startedAt).timeIntervalSince(record.startedAt))
    }
}
