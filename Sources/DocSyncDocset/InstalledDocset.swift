import Foundation

/// A docset in the root folder, as a reader (an indexing backend, Zeal) should use it.
///
/// ``path`` is the resolved folder of one immutable version: it keeps the same content while you read it, even when
/// a sync installs a newer version meanwhile (the replaced version is kept for `install.grace_period`). The same
/// type is in `SyncEvent.installed(_:)`, `SyncEvent.updated(_:from:)`, `SyncEngine.installedDocsets()` and
/// `docsync status --json`; its JSON keys are snake_case (`index_path`, `installed_at`, …).
///
/// `import DocSync` gives it (DocSync re-exports this module); it has a module of its own so that the install
/// stage's record (`InstallRecord`) carries this value instead of repeating its fields.
public struct InstalledDocset: Sendable, Equatable, Hashable, Codable {
    /// The folder name without `.docset`: `<root>/<name>.docset`.
    public var name: String
    /// The human title (the feed entry's title, or the name).
    public var title: String
    /// The version docsync installed; nil for a docset installed by something else.
    public var version: String?
    /// The Dash feed revision, when the feed gives one.
    public var revision: String?
    /// Atom's `docset:identifier` (e.g. `com.apple.adc.documentation.Swift`); nil for Dash feeds.
    public var identifier: String?
    /// The resolved folder of this version (`<root>/.docsync/versions/<name>@<id>`, or `<root>/<name>.docset` for
    /// a docset installed by something else).
    public var path: String
    /// The docset's search index: ``path`` + `/Contents/Resources/docSet.dsidx`.
    public var indexPath: String
    /// When docsync installed this version; nil when not installed by docsync.
    public var installedAt: Date?
    /// The SHA-256 of the archive it was unpacked from (64 lowercase hex digits).
    public var archiveSHA256: String?
    /// Bytes of file data unpacked.
    public var sizeOnDisk: Int64?
    /// Number of files unpacked.
    public var fileCount: Int?
    /// The feed it was installed from (Zeal's `feed_url`).
    public var feedURL: String?
    /// The archive URL it was downloaded from.
    public var sourceURL: String?
    /// The feed entry's `updated` date at install time.
    public var updated: Date?
    /// Its search keywords (`py:open` searches the docsets with keyword `py`), lowercased, as Zeal gathers them
    /// (``DocsetKeywords``) plus the configuration's `[[docset]] keywords`. `SyncEngine.installedDocsets()` fills
    /// them; in JSON, `"keywords": [...]` when known.
    public var keywords: [String] {
        get { keywordList ?? [] }
        set { keywordList = newValue }
    }
    /// nil when not read (encoded only when known).
    private var keywordList: [String]?
    /// How the docset keeps its documents: every file extracted, or in a tarix store (``Layout``). In JSON,
    /// `"layout": "tarix"` for a tarix docset, no member for an extracted one (as before layouts existed).
    public var layout: Layout {
        get { tarixLayout ?? .extracted }
        set { tarixLayout = newValue == .extracted ? nil : newValue }
    }
    /// nil for the extracted layout (encoded only when it is not).
    private var tarixLayout: Layout?

    /// How an installed docset keeps its documents (`[install] layout`).
    public enum Layout: String, Sendable, Hashable, Codable, CaseIterable {
        /// Every file extracted under `Contents/Resources/Documents/` (what every reader reads: released Zeal up to
        /// 0.8.x, dasht, `file://` browsers).
        case extracted
        /// The documents kept as an indexed archive, `Contents/Resources/tarix.tgz` and `tarixIndex.db` (read by
        /// Dash, Zeal's main branch and docsync; a handful of files instead of one per page); everything outside
        /// `Documents/` extracted.
        case tarix
    }

    /// Creates a value; an indexing backend normally receives these from ``SyncEngine`` instead.
    public init(
        name: String, title: String? = nil, version: String? = nil, revision: String? = nil,
        identifier: String? = nil, path: String, indexPath: String? = nil, installedAt: Date? = nil,
        archiveSHA256: String? = nil, sizeOnDisk: Int64? = nil, fileCount: Int? = nil, feedURL: String? = nil,
        sourceURL: String? = nil, updated: Date? = nil
    ) {
        self.name = name
        self.title = title ?? name
        self.version = version
        self.revision = revision
        self.identifier = identifier
        self.path = path
        self.indexPath = indexPath ?? "\(path)/Contents/Resources/docSet.dsidx"
        self.installedAt = installedAt
        self.archiveSHA256 = archiveSHA256
        self.sizeOnDisk = sizeOnDisk
        self.fileCount = fileCount
        self.feedURL = feedURL
        self.sourceURL = sourceURL
        self.updated = updated
    }

    enum CodingKeys: String, CodingKey {
        case name, title, version, revision, identifier, path, updated
        case indexPath = "index_path"
        case installedAt = "installed_at"
        case archiveSHA256 = "archive_sha256"
        case sizeOnDisk = "size_on_disk"
        case fileCount = "file_count"
        case feedURL = "feed_url"
        case sourceURL = "source_url"
        case tarixLayout = "layout"
        case keywordList = "keywords"
    }
}
