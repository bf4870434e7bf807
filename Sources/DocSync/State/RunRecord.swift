internal import DocSyncSupport
import Foundation

/// The last sync run as `docsync status` tells it: written when a run starts (so an interrupted run is visible —
/// killed, rebooted, Ctrl-C) and again when it ends, in `<state>/last-run.json`.
package struct RunRecord: Codable, Sendable, Equatable {
    package enum Outcome: String, Codable, Sendable {
        /// Everything synced.
        case ok
        /// Some docsets, feeds or hooks failed (exit 3).
        case failed
        /// Stopped by SIGINT / SIGTERM / cancellation; partial downloads kept.
        case interrupted
        /// The run could not go on (the error's text is in `detail`).
        case error
    }

    package var startedAt: Date
    package var pid: Int32
    /// Nil while running, or when the process died before it could record the end.
    package var finishedAt: Date?
    package var outcome: Outcome?
    package var detail: String?
    /// When the last run that ended `ok` before this one finished (carried from run to run, for metrics).
    package var lastSuccessAt: Date?

    package init(startedAt: Date, pid: Int32) {
        self.startedAt = startedAt
        self.pid = pid
    }

    /// A record for a run starting now, carrying the last success of `previous`.
    static func starting(after previous: RunRecord?) -> RunRecord {
        var record = RunRecord(startedAt: Date(), pid: getpid())
        record.lastSuccessAt = previous?.outcome == .ok ? previous?.finishedAt : previous?.lastSuccessAt
        return record
    }

    static let fileName = "last-run.json"

    package static func path(stateDirectory: String) -> String { "\(stateDirectory)/\(fileName)" }

    package static func load(stateDirectory: String) -> RunRecord? {
        guard let bytes = (try? SafeDirectory.open(stateDirectory).readFile("last-run.json", limit: 16 << 20))
            .flatMap({ $0 })
        else { return nil }
        let data = Data(bytes)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try? decoder.decode(RunRecord.self, from: data)
    }

    /// Writes the record (temp file + rename); a failure to record never fails the sync. Not `durable`: the caller
    /// syncs the state folder's file system next (`SyncEngine.finish`).
    func save(stateDirectory: String, durable: Bool = true) {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        var record = self
        record.detail = detail?.redactingCredentials  // an error's text may quote a URL
        guard let data = try? encoder.encode(record), let state = try? SafeDirectory.open(stateDirectory, create: true)
        else { return }
        try? state.writeFileAtomically("last-run.json", Array(data), durable: durable)
    }

    func finished(_ outcome: Outcome, detail: String? = nil, at date: Date = Date()) -> RunRecord {
        var record = self
        record.finishedAt = date
        record.outcome = outcome
        record.detail = detail
        return record
    }
}
