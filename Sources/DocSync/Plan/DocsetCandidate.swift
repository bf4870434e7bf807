import DocSyncCatalog
import Foundation

/// One installable docset version offered by a feed, reduced to what planning needs.
public struct DocsetCandidate: Sendable, Equatable {
    /// Folder name (`<name>.docset`), already safe.
    public var name: String
    /// Atom's `docset:identifier`; nil for Dash feeds (the name identifies them).
    public var identifier: String?
    public var title: String
    public var version: DocsetVersion
    /// Atom's entry `updated`: a republished entry with the same version but a newer date counts as new.
    public var updated: Date?
    /// Archive URLs in feed order (Dash mirrors, or Atom enclosures).
    public var archives: [String]
    public var sha256: String?
    public var length: Int64?
    /// The feed (path or URL) that offered it.
    public var feed: String
    /// The configuration pins this version: it replaces any other installed version, older or newer.
    public var pinned: Bool
    /// The catalogue entry it was resolved from (`[[docset]]`): fills `meta.json` and the icons at install.
    public var catalog: CatalogEntry? = nil

    public init(
        name: String, identifier: String? = nil, title: String, version: DocsetVersion, updated: Date? = nil,
        archives: [String], sha256: String? = nil, length: Int64? = nil, feed: String, pinned: Bool = false
    ) {
        self.name = name
        self.identifier = identifier
        self.title = title
        self.version = version
        self.updated = updated
        self.archives = archives
        self.sha256 = sha256
        self.length = length
        self.feed = feed
        self.pinned = pinned
    }

    /// Newer by version, then (same version, Atom republication) by `updated`.
    /// A pinned candidate differs from any other version (a pin may go down as well as up).
    public func shouldReplace(_ other: DocsetVersion, updated otherUpdated: Date?) -> Bool {
        if version != other { return pinned || version > other }
        guard let updated, let otherUpdated else { return false }
        return updated > otherUpdated
    }
}

/// What is installed now, as the planner sees it (from the installer's records and meta.json).
public struct InstalledState: Sendable, Equatable {
    public var name: String
    public var identifier: String?
    public var version: DocsetVersion
    public var updated: Date?
    /// The feed it came from; nil when docsync did not install it (never pruned).
    public var feed: String?

    public init(name: String, identifier: String? = nil, version: DocsetVersion, updated: Date? = nil, feed: String?) {
        self.name = name
        self.identifier = identifier
        self.version = version
        self.updated = updated
        self.feed = feed
    }
}
