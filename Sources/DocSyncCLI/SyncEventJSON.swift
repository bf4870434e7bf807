import DocSync
import Foundation

/// One JSON object per event for `docsync sync --json` (newline-delimited).
enum SyncEventJSON {
    static func line(_ event: SyncEvent) -> String {
        let object = self.object(event)
        let data =
            (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    static func object(_ event: SyncEvent) -> [String: Any] {
        switch event {
        case .feedChecked(let feed, let source, let docsets):
            return ["event": "feed-checked", "feed": feed, "source": source.rawValue, "docsets": docsets]
        case .feedFailed(let feed, let reason):
            return ["event": "feed-failed", "feed": feed, "reason": reason]
        case .feedWarning(let feed, let message):
            return ["event": "feed-warning", "feed": feed, "message": message]
        case .planned(let plan):
            return ["event": "plan", "actions": plan.actions.map(action)]
        case .progress(let p):
            var o: [String: Any] = [
                "event": "progress", "name": p.name, "phase": p.phase.rawValue, "bytes": p.bytes,
                "rate": Int64(p.rate),
            ]
            if let total = p.total { o["total"] = total }
            return o
        case .installed(let docset): return report(docset, event: "installed")
        case .updated(let docset, let from):
            var o = report(docset, event: "updated")
            o["from"] = from
            return o
        case .unchanged(let name, let version): return ["event": "unchanged", "name": name, "version": version]
        case .removed(let name): return ["event": "removed", "name": name]
        case .orphaned(let name): return ["event": "orphaned", "name": name]
        case .skipped(let name, let reason): return ["event": "skipped", "name": name, "reason": reason]
        case .failed(let name, let reason): return ["event": "failed", "name": name, "reason": reason]
        case .hookFailed(let failure):
            var o: [String: Any] = [
                "event": "hook-failed", "name": failure.name, "reason": failure.reason, "stderr": failure.standardError,
                "timed_out": failure.timedOut,
            ]
            if let status = failure.exitStatus { o["exit_status"] = status }
            if let signal = failure.signal { o["signal"] = signal }
            return o
        case .warning(let name, let message): return ["event": "warning", "name": name, "message": message]
        case .summary(let s):
            return [
                "event": "summary", "installed": s.installed, "updated": s.updated, "unchanged": s.unchanged,
                "removed": s.removed, "failed": s.failed, "feeds_failed": s.feedsFailed,
                "seconds": (s.seconds * 1000).rounded() / 1000,
            ]
        }
    }

    private static func report(_ r: DocsetReport, event: String) -> [String: Any] {
        var o: [String: Any] = [
            "event": event, "name": r.name, "version": r.version, "path": r.path, "index": r.indexPath,
        ]
        if let identifier = r.identifier { o["identifier"] = identifier }
        return o
    }

    private static func action(_ a: SyncPlan.Action) -> [String: Any] {
        switch a {
        case .install(let c):
            ["action": "install", "name": c.name, "version": c.version.description, "url": c.archives[0]]
        case .update(let c, let from):
            [
                "action": "update", "name": c.name, "version": c.version.description, "from": from.version.description,
                "url": c.archives[0],
            ]
        case .unchanged(let c, _): ["action": "unchanged", "name": c.name, "version": c.version.description]
        case .orphan(let i, let prune): ["action": prune ? "remove" : "orphan", "name": i.name]
        case .skipped(let name, _, let reason): ["action": "skip", "name": name, "reason": reason]
        }
    }
}
