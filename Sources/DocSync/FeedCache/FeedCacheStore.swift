import DocSyncSupport
import Foundation

/// Per-feed cache in `<state>/feeds/`: `<key>.json` (a `FeedCacheEntry`) and `<key>.xml` (the last body), written
/// atomically (temp file + rename) so a crash leaves the old pair or the new one.
public struct FeedCacheStore: Sendable {
    public let directory: String

    public init(stateDirectory: String) { directory = "\(stateDirectory)/feeds" }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    static func key(_ url: String) -> String { String(SHA256.hash(Array(url.utf8)).description.prefix(24)) }

    /// The stored entry and body, or nil when either is missing or unreadable (the next GET is unconditional).
    public func load(url: String) -> (entry: FeedCacheEntry, body: [UInt8])? {
        let base = "\(directory)/\(Self.key(url))"
        guard let json = FileManager.default.contents(atPath: "\(base).json"),
            let entry = try? Self.decoder.decode(FeedCacheEntry.self, from: json), entry.url == url,
            let body = FileManager.default.contents(atPath: "\(base).xml")
        else { return nil }
        return (entry, [UInt8](body))
    }

    /// Saves the body first, then the entry that vouches for it.
    public func save(_ entry: FeedCacheEntry, body: [UInt8]?) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let base = "\(directory)/\(Self.key(entry.url))"
        if let body { try Data(body).write(to: URL(fileURLWithPath: "\(base).xml"), options: .atomic) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        try encoder.encode(entry).write(to: URL(fileURLWithPath: "\(base).json"), options: .atomic)
    }
}
