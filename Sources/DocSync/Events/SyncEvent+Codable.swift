import Foundation

/// The JSON form: one flat object per event, `{"event": "<kind>", "schema": 1, …the case's members}`.
extension SyncEvent: Codable {
    /// The `event` member of this event's JSON object (`feed-checked`, `plan`, `installed`, …).
    public var kind: String {
        switch self {
        case .feedChecked: "feed-checked"
        case .feedFailed: "feed-failed"
        case .feedWarning: "feed-warning"
        case .planned: "plan"
        case .progress: "progress"
        case .installed: "installed"
        case .updated: "updated"
        case .unchanged: "unchanged"
        case .removed: "removed"
        case .orphaned: "orphaned"
        case .skipped: "skipped"
        case .failed: "failed"
        case .hookFailed: "hook-failed"
        case .warning: "warning"
        case .indexed: "indexed"
        case .indexFailed: "index-failed"
        case .alternateFault: "mirror-fault"
        case .summary: "summary"
        }
    }

    /// The event as one line of JSON in docsync's dialect (what `docsync sync --json` prints).
    public func jsonLine() -> String {
        // Encoding these plain values cannot fail (no non-finite numbers: rates and durations are finite).
        (try? DocSyncJSON.line(self)) ?? #"{"event":"\#(kind)","schema":\#(DocSyncJSON.schema)}"#
    }

    private enum Key: String, CodingKey {
        case event, schema, feed, source, docsets, failure, actions, name, version, from, reason, message, entries
        case url
    }

    /// Writes the flat JSON object; struct payloads add their members beside `event` and `schema`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(kind, forKey: .event)
        try container.encode(DocSyncJSON.schema, forKey: .schema)
        switch self {
        case .feedChecked(let feed, let source, let docsets):
            try container.encode(feed, forKey: .feed)
            try container.encode(source, forKey: .source)
            try container.encode(docsets, forKey: .docsets)
        case .feedFailed(let feed, let failure):
            try container.encode(feed, forKey: .feed)
            try container.encode(failure, forKey: .failure)
        case .feedWarning(let feed, let message):
            try container.encode(feed, forKey: .feed)
            try container.encode(message, forKey: .message)
        case .planned(let actions): try container.encode(actions, forKey: .actions)
        case .progress(let progress): try progress.encode(to: encoder)
        case .installed(let docset): try docset.encode(to: encoder)
        case .updated(let docset, let from):
            try docset.encode(to: encoder)
            try container.encode(from, forKey: .from)
        case .unchanged(let name, let version):
            try container.encode(name, forKey: .name)
            try container.encode(version, forKey: .version)
        case .removed(let name), .orphaned(let name): try container.encode(name, forKey: .name)
        case .skipped(let name, let reason), .indexFailed(let name, let reason):
            try container.encode(name, forKey: .name)
            try container.encode(reason, forKey: .reason)
        case .failed(let name, let failure), .hookFailed(let name, let failure):
            try container.encode(name, forKey: .name)
            try container.encode(failure, forKey: .failure)
        case .warning(let name, let message):
            try container.encode(name, forKey: .name)
            try container.encode(message, forKey: .message)
        case .indexed(let name, let version, let entries):
            try container.encode(name, forKey: .name)
            try container.encode(version, forKey: .version)
            try container.encode(entries, forKey: .entries)
        case .alternateFault(let name, let url, let reason, let message):
            try container.encode(name, forKey: .name)
            try container.encode(url, forKey: .url)
            try container.encode(reason, forKey: .reason)
            try container.encode(message, forKey: .message)
        case .summary(let summary): try summary.encode(to: encoder)
        }
    }

    /// Reads what ``encode(to:)`` writes; an unknown `event` is a `DecodingError.dataCorrupted`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        let kind = try container.decode(String.self, forKey: .event)
        switch kind {
        case "feed-checked":
            self = .feedChecked(
                feed: try container.decode(String.self, forKey: .feed),
                source: try container.decode(FeedRefresh.self, forKey: .source),
                docsets: try container.decode(Int.self, forKey: .docsets))
        case "feed-failed":
            self = .feedFailed(
                feed: try container.decode(String.self, forKey: .feed),
                failure: try container.decode(SyncFailure.self, forKey: .failure))
        case "feed-warning":
            self = .feedWarning(
                feed: try container.decode(String.self, forKey: .feed),
                message: try container.decode(String.self, forKey: .message))
        case "plan": self = .planned(try container.decode([PlannedAction].self, forKey: .actions))
        case "progress": self = .progress(try DocsetProgress(from: decoder))
        case "installed": self = .installed(try InstalledDocset(from: decoder))
        case "updated":
            self = .updated(try InstalledDocset(from: decoder), from: try container.decode(String.self, forKey: .from))
        case "unchanged":
            self = .unchanged(
                name: try container.decode(String.self, forKey: .name),
                version: try container.decode(String.self, forKey: .version))
        case "removed": self = .removed(name: try container.decode(String.self, forKey: .name))
        case "orphaned": self = .orphaned(name: try container.decode(String.self, forKey: .name))
        case "skipped":
            self = .skipped(
                name: try container.decode(String.self, forKey: .name),
                reason: try container.decode(String.self, forKey: .reason))
        case "failed", "hook-failed":
            let name = try container.decode(String.self, forKey: .name)
            let failure = try container.decode(SyncFailure.self, forKey: .failure)
            self = kind == "failed" ? .failed(name: name, failure: failure) : .hookFailed(name: name, failure: failure)
        case "warning":
            self = .warning(
                name: try container.decode(String.self, forKey: .name),
                message: try container.decode(String.self, forKey: .message))
        case "indexed":
            self = .indexed(
                name: try container.decode(String.self, forKey: .name),
                version: try container.decode(String.self, forKey: .version),
                entries: try container.decode(Int.self, forKey: .entries))
        case "index-failed":
            self = .indexFailed(
                name: try container.decode(String.self, forKey: .name),
                reason: try container.decode(String.self, forKey: .reason))
        case "mirror-fault":
            self = .alternateFault(
                name: try container.decode(String.self, forKey: .name),
                url: try container.decode(String.self, forKey: .url),
                reason: try container.decode(String.self, forKey: .reason),
                message: try container.decode(String.self, forKey: .message))
        case "summary": self = .summary(try SyncSummary(from: decoder))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .event, in: container, debugDescription: "unknown sync event \"\(kind)\"")
        }
    }
}
