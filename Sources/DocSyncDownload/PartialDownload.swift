import Foundation

/// A download in progress as its journal records it: what `docsync status` lists.
public struct PartialDownload: Sendable, Equatable {
    /// The stable key (docset identifier + version, or the URL of a bare fetch).
    public var key: String
    /// The URL whose bytes the journal holds.
    public var url: String
    /// Bytes durably committed.
    public var bytes: Int64
    /// The full length, when the server told it.
    public var total: Int64?

    /// Every readable journal in `stagingDirectory`; torn or corrupt ones are left out (the next run discards them).
    public static func list(in stagingDirectory: String) -> [PartialDownload] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: stagingDirectory)) ?? []
        return names.filter { $0.hasSuffix(".journal") }.sorted().compactMap { name in
            guard let data = FileManager.default.contents(atPath: "\(stagingDirectory)/\(name)"),
                let journal = Journal(decoding: [UInt8](data))
            else { return nil }
            return PartialDownload(key: journal.key, url: journal.url, bytes: journal.committed, total: journal.length)
        }
    }
}
