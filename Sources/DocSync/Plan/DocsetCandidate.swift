package import DocSyncCatalog
package import DocSyncSupport
import Foundation

/// One installable docset version offered by a feed, reduced to what planning needs.
package struct DocsetCandidate: Sendable, Equatable {
    /// Folder name (`<name>.docset`), already safe.
    package var name: String
    /// Atom's `docset:identifier`; nil for Dash feeds (the name identifies them).
    package var identifier: String?
    package var title: String
    package var version: DocsetVersion
    /// Atom's entry `updated`: a republished entry with the same version but a newer date counts as new.
    package var updated: Date?
    /// Archive URLs in feed order (Dash mirrors, or Atom enclosures).
    package var archives: [String]
    package var sha256: String?
    package var length: Int64?
    /// The feed (path or URL) that offered it.
    package var feed: String
    /// The configuration pins this version: it replaces any other installed version, older or newer.
    package var pinned: Bool
    /// The catalogue entry it was resolved from (`[[docset]]`): fills `meta.json` and the icons at install.
    package var catalog: CatalogEntry? = nil
    /// How many of the leading `archives` are built on `[catalog] mirrors`: they are tried before the catalogue's
    /// or feed's own URLs whatever was learned (learning orders each group on its own), so a host told to use a
    /// campus mirror reaches the public hosts only when every configured mirror failed for this archive.
    package var configuredAlternates = 0
    /// The archives' order is itself a decision (a lock's URLs, the one last used first): learning only moves
    /// failing hosts back, never explores ahead of it (`AlternateRanking.orderKeepingSequence`).
    package var keepsOrder = false
    /// How it arrives in Zeal's terms (decides Zeal's members of `meta.json`).
    package var zeal: ZealArrival = .file

    package init(
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
    package func shouldReplace(_ other: DocsetVersion, updated otherUpdated: Date?) -> Bool {
        if version != other { return pinned || version > other }
        guard let updated, let otherUpdated else { return false }
        return updated > otherUpdated
    }
}

/// What is installed now, as the planner sees it (from the installer's records and meta.json).
package struct InstalledState: Sendable, Equatable {
    package var name: String
    package var identifier: String?
    package var version: DocsetVersion
    package var updated: Date?
    /// The feed it came from; nil when docsync did not install it (never pruned).
    package var feed: String?

    package init(name: String, identifier: String? = nil, version: DocsetVersion, updated: Date? = nil, feed: String?) {
        self.name = name
        self.identifier = identifier
        self.version = version
        self.updated = updated
        self.feed = feed
    }
}
