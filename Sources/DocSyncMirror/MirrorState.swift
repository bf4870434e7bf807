import DocSyncSupport
import Foundation

/// What the publisher remembers between runs (`<state>/mirror.json`): the versions each docset's feed names,
/// newest first, and when each archive folder stopped being named (it is deleted once its grace period passed).
package struct MirrorState: Codable, Sendable, Equatable {
    package static let currentSchema = 1
    package var schema = currentSchema
    /// Docset name → published versions, newest first (at most `keep`).
    package var docsets: [String: [MirrorVersion]] = [:]
    /// Archive folder (`<sha256>`) → when no published feed named it any more.
    package var retired: [String: Date] = [:]
    /// When the published set last changed (the Atom feed's `updated`).
    package var updated: Date? = nil

    package init(docsets: [String: [MirrorVersion]] = [:], retired: [String: Date] = [:]) {
        self.docsets = docsets
        self.retired = retired
    }

    /// Every archive folder a published feed names.
    package var named: Set<String> { Set(docsets.values.flatMap { $0.map(\.sha256) }) }

    /// The published docsets' newest versions, by name.
    package var latest: [MirrorVersion] { docsets.keys.sorted().compactMap { docsets[$0]?.first } }

    package static func load(_ path: String) -> MirrorState {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let data = (try? RegularFile.read(path: path, limit: 256 << 20)).flatMap({ $0 }).map({ Data($0) }),
            let state = try? decoder.decode(MirrorState.self, from: data), state.schema == currentSchema
        else { return MirrorState() }
        return state
    }

    package func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(self)) ?? Data())
    }
}
