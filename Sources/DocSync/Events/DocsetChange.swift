import Foundation

/// One change to the docsets installed under a root, from the root's change log (``SyncEngine/changes(since:)``).
///
/// Every command that changes the root (sync, install, remove, relayout, adopt, mirror import) records one per
/// docset it installs, updates or removes, in the same durable step as the change itself. Installing again what is
/// installed (same version, same bytes), or a repair, records nothing; the same version with different bytes is an
/// ``Kind-swift.enum/updated``.
public struct DocsetChange: Sendable, Hashable {
    /// What happened to the docset.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The docset was not installed before.
        case installed
        /// Another version, or the same version with other bytes, replaced the installed one.
        case updated
        /// The docset is no longer installed.
        case removed
    }

    /// The position after this change: pass it to ``SyncEngine/changes(since:)`` to read what came after. Opaque,
    /// strictly increasing, stable across restarts.
    public let cursor: String
    /// The docset's name (its `NAME.docset` in the root).
    public let docset: String
    /// What happened.
    public let kind: Kind
    /// The publisher's version before the change ("" when it has none; nil for ``Kind-swift.enum/installed``).
    public let from: String?
    /// The publisher's version after the change ("" when it has none; nil for ``Kind-swift.enum/removed``).
    public let to: String?
    /// The version folder before the change (`NAME@ID` under `<root>/.docsync/versions/`), for a lease.
    public let fromVersionID: String?
    /// The version folder after the change, for a lease.
    public let toVersionID: String?
    /// When the change was made.
    public let at: Date

    /// A change as the log records it (tests and tools may make their own).
    public init(
        cursor: String, docset: String, kind: Kind, from: String?, to: String?, fromVersionID: String? = nil,
        toVersionID: String? = nil, at: Date
    ) {
        self.cursor = cursor
        self.docset = docset
        self.kind = kind
        self.from = from
        self.to = to
        self.fromVersionID = fromVersionID
        self.toVersionID = toVersionID
        self.at = at
    }
}
