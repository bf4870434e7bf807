import DocSync
import Foundation

/// What one in-process sync reported: its events as `docsync sync --json` prints them, and its summary. The loop
/// every in-process sync test runs (`SyncRun.of(engine)`), so they read the same events the same way.
package struct SyncRun {
    /// Every event, decoded as JSON objects (`event`, `name`, `failure`, …), in order.
    package var events: [[String: Any]]
    /// The run's summary (nil when the run threw before giving one).
    package var summary: SyncSummary?
    /// Every event line as `sync --json` prints it, for failure messages.
    package var lines: String

    /// What the CLI would exit with: 0 when the run succeeded, 3 when some docset or feed failed, 1 with no summary.
    package var status: Int32 { summary.map { $0.isSuccess ? 0 : 3 } ?? 1 }

    /// The names in the events of `kind` (`installed`, `failed`, …), sorted.
    package func names(_ kind: String) -> [String] {
        events.filter { $0["event"] as? String == kind }.compactMap { $0["name"] as? String }.sorted()
    }

    /// The first event of `kind`, if any.
    package func first(_ kind: String) -> [String: Any]? { events.first { $0["event"] as? String == kind } }

    /// The failure message (or skip reason) of the first event of `kind`.
    package func reason(_ kind: String) -> String? {
        let event = first(kind)
        return (event?["failure"] as? [String: Any])?["message"] as? String ?? event?["reason"] as? String
    }

    /// Runs one sync of `engine` in process with `options`, collecting what it reports.
    package static func of(_ engine: SyncEngine, _ options: SyncOptions = SyncOptions()) async throws -> SyncRun {
        var run = SyncRun(events: [], summary: nil, lines: "")
        for try await event in engine.sync(options) {
            let line = event.jsonLine()
            run.lines += line + "\n"
            if let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] {
                run.events.append(object)
            }
            if case .summary(let summary) = event { run.summary = summary }
        }
        return run
    }
}
