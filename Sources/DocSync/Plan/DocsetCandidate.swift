package import DocSyncCatalog
package import DocSyncInstall
package import DocSyncSupport
import Foundation

/// One installable docset version offered by a feed: what the installer will be asked to install (``request``: the
/// folder name, title, version, identifier, `updated`, the feed, the archive URLs, Zeal's arrival), plus what only
/// planning and downloading use (checksum, advertised length, pin, catalogue entry, the archives' order rules).
/// The docset's facts are stored once, in the request; the properties below read and write them there.
package struct DocsetCandidate: Sendable, Equatable {
    /// The install the plan would make of it (`fetchAndInstall` adds the download's facts and the layout).
    package var request: InstallRequest
    package var sha256: String?
    package var length: Int64?
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

    /// Folder name (`<name>.docset`), already safe.
    package var name: String {
        get { request.name }
        set { request.name = newValue }
    }
    /// Atom's `docset:identifier`; nil for Dash feeds (the name identifies them).
    package var identifier: String? {
        get { request.identifier }
        set { request.identifier = newValue }
    }
    package var title: String {
        get { request.title ?? request.name }
        set { request.title = newValue }
    }
    /// The version offered (the request's `version` and `revision`).
    package var version: DocsetVersion {
        get { DocsetVersion(version: request.version ?? "", revision: request.revision ?? "") }
        set {
            request.version = newValue.version
            request.revision = newValue.revision.isEmpty ? nil : newValue.revision
        }
    }
    /// Atom's entry `updated`: a republished entry with the same version but a newer date counts as new.
    package var updated: Date? {
        get { request.updated }
        set { request.updated = newValue }
    }
    /// Archive URLs in feed order (Dash mirrors, or Atom enclosures); the order this host tries them once learned.
    package var archives: [String] {
        get { request.urls }
        set { request.urls = newValue }
    }
    /// The feed (path or URL) that offered it.
    package var feed: String {
        get { request.feedURL ?? "" }
        set { request.feedURL = newValue }
    }
    /// How it arrives in Zeal's terms (decides Zeal's members of `meta.json`).
    package var zeal: ZealArrival {
        get { request.arrival }
        set { request.arrival = newValue }
    }

    package init(
        name: String, identifier: String? = nil, title: String, version: DocsetVersion, updated: Date? = nil,
        archives: [String], sha256: String? = nil, length: Int64? = nil, feed: String, pinned: Bool = false
    ) {
        request = InstallRequest(
            name: name, title: title, feedURL: feed, urls: archives, identifier: identifier, updated: updated)
        self.sha256 = sha256
        self.length = length
        self.pinned = pinned
        self.version = version
    }

    /// Newer by version, then (same version, Atom republication) by `updated`.
    /// A pinned candidate differs from any other version (a pin may go down as well as up).
    package func shouldReplace(_ other: DocsetVersion, updated otherUpdated: Date?) -> Bool {
        if version != other { return pinned || version > other }
        guard let updated, let otherUpdated else { return false }
        return updated > otherUpdated
    }
}

extension InstalledDocset {
    /// Its version in the planner's order (``DocsetVersion``): `version` and `revision` as recorded.
    package var plannedVersion: DocsetVersion { DocsetVersion(version: version ?? "", revision: revision ?? "") }

    /// The feed it belongs to for pruning: only docsync's own installs (its record, `installedAt`) belong to a feed;
    /// a folder Zeal or the user put there keeps its `feed_url` but is never docsync's to remove (nil).
    package var owningFeed: String? { installedAt == nil ? nil : feedURL }
}
