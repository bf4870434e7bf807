import DocSyncSupport
import Foundation

/// What the change log keeps per version folder, beside the log (`<root>/.docsync/changes/versions/NAME@ID`), for
/// as long as a kept record names the version: the publisher's version and the digest of the version's content, so
/// that installing the same version with the same bytes again is known to be no change.
///
/// Text: `docsync-version 1`, then the version (percent-encoded as in the log) and the digest, one per line.
struct VersionSummary: Equatable, Sendable {
    static let folderName = "versions"
    static let magic = "docsync-version 1"

    /// `meta.json`'s version ("" when it has none).
    var version: String
    /// ``TreeManifest/contentDigest`` of the version ("" when it has no manifest: an adopted folder).
    var digest: String

    var encoded: [UInt8] { Array("\(Self.magic)\n\(ChangeRecord.escape(version))\n\(digest)\n".utf8) }

    init(version: String, digest: String) {
        self.version = version
        self.digest = digest
    }

    init?(decoding bytes: [UInt8]) {
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 3, lines[0] == Self.magic, let version = ChangeRecord.unescape(lines[1]) else {
            return nil
        }
        self.init(version: version, digest: String(lines[2]))
    }
}

extension TreeManifest {
    /// The SHA-256 of the tree's content: every path with its kind, size and SHA-256 (or link target), sorted —
    /// equal for two versions exactly when they hold the same bytes at the same paths. `meta.json` is left out: it
    /// is docsync's record of the install (the archive's SHA-256 changes with a repacked archive of the same files).
    /// Hashed as it is encoded, without copying the entries or holding the text (memory: the sorted paths).
    var contentDigest: String {
        var hasher = SHA256()
        encode(leaving: DocsetMetadata.fileName) { hasher.update($0) }
        return hasher.finalize().description
    }
}
