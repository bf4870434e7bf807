internal import DocSyncSupport
import Foundation

/// The outcome of the last sync, kept in `<state>/last-sync.json` for `docsync status`.
package struct SyncRecord: Codable, Sendable, Equatable {
    package struct FeedResult: Codable, Sendable, Equatable {
        package var feed: String
        package var ok: Bool
        /// `local`, `fresh`, `not_modified` or `downloaded` when ok; the reason otherwise.
        package var detail: String
    }

    package var finishedAt: Date
    package var feeds: [FeedResult]
    package var summary: SyncSummary

    static let fileName = "last-sync.json"

    package static func path(stateDirectory: String) -> String { "\(stateDirectory)/\(fileName)" }

    package static func load(stateDirectory: String) -> SyncRecord? {
        guard let state = try? SafeDirectory.open(stateDirectory),
            let bytes = (try? state.readFile(fileName, limit: 16 << 20)).flatMap({ $0 })
        else { return nil }
        let data = Data(bytes)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try? decoder.decode(SyncRecord.self, from: data)
    }

    /// Writes the record (temp file + rename). Not `durable`: the caller syncs the state folder's file system
    /// later (`SyncEngine.finish`).
    package func save(stateDirectory: String, durable: Bool = true) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        // Through the state folder's descriptor: a symlink at last-sync.json is replaced, never written through.
        let state = try SafeDirectory.open(stateDirectory, create: true)
        var stored = self
        stored.feeds = feeds.map {
            FeedResult(feed: $0.feed.redactingCredentials, ok: $0.ok, detail: $0.detail.redactingCredentials)
        }
        try state.writeFileAtomically(Self.fileName, Array(try encoder.encode(stored)), durable: durable)
    }
}
