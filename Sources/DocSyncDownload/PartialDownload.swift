import DocSyncSupport
import Foundation

/// A download in progress as its journal records it: what `docsync status` lists.
package struct PartialDownload: Sendable, Equatable {
    /// The stable key (docset identifier + version, or the URL of a bare fetch).
    package var key: String
    /// The URL whose bytes the journal holds.
    package var url: String
    /// Bytes durably committed.
    package var bytes: Int64
    /// The full length, when the server told it.
    package var total: Int64?
    /// When its journal last recorded progress (its age tells a stalled or abandoned download).
    package var updatedAt: Date?

    /// Every readable journal in `stagingDirectory`; torn or corrupt ones are left out (the next run discards them).
    /// Journals are read through the folder's descriptor, never through a symlink, and at most 64 MiB each.
    package static func list(in stagingDirectory: String) -> [PartialDownload] {
        guard let folder = try? SafeDirectory.open(stagingDirectory), let entries = try? folder.entries() else {
            return []
        }
        return entries.map(\.name).filter { $0.hasSuffix(".journal") }.sorted().compactMap { name in
            guard let bytes = (try? folder.readFile(name, limit: 64 << 20)).flatMap({ $0 }) else { return nil }
            let attributes = try? FileManager.default.attributesOfItem(atPath: "\(stagingDirectory)/\(name)")
            let updatedAt = attributes?[.modificationDate] as? Date
            if let segmented = SegmentJournal(decoding: bytes) {  // version 2: bytes durable in all segments
                return PartialDownload(
                    key: segmented.key, url: segmented.url, bytes: segmented.durableBytes,
                    total: segmented.identity.length, updatedAt: updatedAt)
            }
            guard let journal = Journal(decoding: bytes) else { return nil }
            return PartialDownload(
                key: journal.key, url: journal.url, bytes: journal.committed, total: journal.length,
                updatedAt: updatedAt)
        }
    }
}
