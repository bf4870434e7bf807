/// What changed between two versions of a docset (``SyncEngine/diff(_:from:to:)``): its pages (files of the
/// documents folder) added, removed or modified, and its index entries added or removed — only the differences.
///
/// Built from what docsync records at install for as long as the change log names a version (a digest per page
/// and the index rows, never the files), so it works after the old version's files are pruned, and compares by
/// content whatever the layout: a version kept extracted and one kept in a tarix store with the same bytes differ
/// in nothing.
public struct DocsetDiff: Sendable, Hashable {
    /// One side of the comparison: a version as the change log names it.
    public struct Version: Sendable, Hashable {
        /// The publisher's version (`meta.json`'s; "" when it has none).
        public let version: String
        /// The version folder (`NAME@ID` under `<root>/.docsync/versions/`; ``DocsetChange/toVersionID``).
        public let versionID: String

        /// A version as the log names it.
        public init(version: String, versionID: String) {
            self.version = version
            self.versionID = versionID
        }
    }

    /// What happened to a page or an entry.
    public enum Change: String, Sendable, Hashable, CaseIterable {
        /// Only the newer version has it.
        case added
        /// Only the older version has it.
        case removed
        /// Both have the page, with different bytes (pages only: an entry is added or removed).
        case modified
    }

    /// A page that differs.
    public struct Page: Sendable, Hashable {
        /// The page relative to the documents folder, as ``DocsetEntry/page`` names it.
        public let page: String
        /// What happened to it.
        public let change: Change

        /// A page difference.
        public init(page: String, change: Change) {
            self.page = page
            self.change = change
        }
    }

    /// An index entry that only one version has: identified by all of its fields (an entry whose page or type
    /// changed is one removed and one added).
    public struct Entry: Sendable, Hashable {
        /// The entry's name, as ``DocsetEntry/name``.
        public let name: String
        /// The normalised type, as ``DocsetEntry/type``.
        public let type: String
        /// The type as the index spells it, as ``DocsetEntry/rawType``.
        public let rawType: String
        /// The page, as ``DocsetEntry/page``.
        public let page: String
        /// The anchor within the page, as ``DocsetEntry/fragment``.
        public let fragment: String?
        /// ``Change/added`` or ``Change/removed``.
        public let change: Change

        /// An entry difference.
        public init(name: String, type: String, rawType: String, page: String, fragment: String?, change: Change) {
            self.name = name
            self.type = type
            self.rawType = rawType
            self.page = page
            self.fragment = fragment
            self.change = change
        }
    }

    /// The docset's name.
    public let docset: String
    /// The older version (nil: none — everything the newer one has is added).
    public let from: Version?
    /// The newer version.
    public let to: Version
    /// The pages that differ, sorted by their encoded path.
    public let pages: [Page]
    /// The index entries that differ, sorted.
    public let entries: [Entry]

    /// A diff (tests and tools may make their own).
    public init(docset: String, from: Version?, to: Version, pages: [Page], entries: [Entry]) {
        self.docset = docset
        self.from = from
        self.to = to
        self.pages = pages
        self.entries = entries
    }
}
