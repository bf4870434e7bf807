import Foundation

/// The outcome of the last sync, kept in `<state>/last-sync.json` for `docsync status`.
public struct SyncRecord: Codable, Sendable, Equatable {
    public struct FeedResult: Codable, Sendable, Equatable {
        public var feed: String
        public var ok: Bool
        /// `local`, `fresh`, `notModified` or `downloaded` when ok; the reason otherwise.
        public var detail: String
    }

    public var finishedAt: Date
    public var feeds: [FeedResult]
    public var summary: SyncSummary

    public static func path(stateDirectory: String) -> String { "\(stateDirectory)/last-sync.json" }

    public static func load(stateDirectory: String) -> SyncRecord? {
        guard let data = FileManager.default.contents(atPath: path(stateDirectory: stateDirectory)) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try? decoder.decode(SyncRecord.self, from: data)
    }

    public func save(stateDirectory: String) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(
            to: URL(fileURLWithPath: Self.path(stateDirectory: stateDirectory)), options: .atomic)
    }
}
