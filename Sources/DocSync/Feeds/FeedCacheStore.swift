internal import DocSyncSupport
import Foundation

/// Per-feed cache in `<state>/feeds/`: `<key>.json` (a `FeedCacheEntry`) and `<key>.xml` (the last body), written
/// atomically (temp file + rename) so a crash leaves the old pair or the new one. Not fsynced: a pair a crash lost
/// or damaged fails its digest check or does not decode, and costs one unconditional GET; fsyncing each revalidated
/// feed's entry (a 304 updates it) cost two fsyncs a feed on every no-op sync.
package struct FeedCacheStore: Sendable {
    package let directory: String
    let stateDirectory: String

    package init(stateDirectory: String) {
        self.stateDirectory = stateDirectory
        directory = "\(stateDirectory)/feeds"
    }

    static func key(_ url: String) -> String { String(SHA256.hash(Array(url.utf8)).description.prefix(24)) }

    /// The stored entry and body, or nil when either is missing, unreadable, or the body does not match the digest
    /// the entry recorded (the next GET is unconditional, and its answer replaces the pair).
    package func load(url: String) -> (entry: FeedCacheEntry, body: [UInt8])? {
        let base = Self.key(url)
        guard let folder = try? feedsFolder(create: false),
            let json = (try? folder.readFile("\(base).json", limit: 1 << 20)).flatMap({ $0 }),
            let entry = FeedCacheEntry.decode(json),
            entry.url == url.redactingCredentials,
            let body = (try? folder.readFile("\(base).xml", limit: 256 << 20)).flatMap({ $0 }),
            let digest = entry.bodySHA256, SHA256.hash(body).description == digest
        else { return nil }
        return (entry, body)
    }

    /// Forgets a feed's stored pair (a cached body that no longer parses).
    package func drop(url: String) {
        guard let folder = try? feedsFolder(create: false) else { return }
        let base = Self.key(url)
        try? folder.unlink("\(base).json")
        try? folder.unlink("\(base).xml")
    }

    /// Saves the body first, then the entry that vouches for it (with the body's SHA-256). Both are written through
    /// the state folder's descriptor: a symlink at `feeds` is an error, one at a cache file is replaced.
    package func save(_ entry: FeedCacheEntry, body: [UInt8]?) throws {
        let folder = try feedsFolder(create: true)
        let base = Self.key(entry.url)
        var entry = entry
        entry.url = entry.url.redactingCredentials  // the key is a hash of the full URL; no secret is stored
        if let body {
            try folder.writeFileAtomically("\(base).xml", body, mode: 0o600, durable: false)  // may name credentials
            entry.bodySHA256 = SHA256.hash(body).description
        }
        try folder.writeFileAtomically("\(base).json", entry.encoded(), mode: 0o600, durable: false)
    }

    /// `<state>/feeds`, private to the user running docsync (0700) when `create`: a cached body is the feed as
    /// served, and a feed's archive URLs may carry a password the next sync needs (README, Security).
    private func feedsFolder(create: Bool) throws(SystemError) -> SafeDirectory {
        let state = try SafeDirectory.open(stateDirectory, create: create)
        let folder = try state.directory("feeds", create: create, mode: 0o700)
        // Only when needed: an fchmod takes the folder's inode lock, and eight feeds saving at once queued on it.
        var status = stat()
        if create, fstat(folder.fd, &status) != 0 || status.st_mode & 0o7777 != 0o700,
            fchmod(folder.fd, 0o700) != 0
        {
            throw SystemError("fchmod", path: folder.path)
        }
        return folder
    }
}
