import DocSyncSupport
import Foundation

/// What to install an archive as. `name` is the folder name without `.docset` (`C++` → `C++.docset`).
package struct InstallRequest: Sendable, Equatable {
    package var name: String
    package var title: String?
    package var version: String?
    package var revision: String?
    /// Where docsync found it (a feed URL or path, `catalog:<source>/<name>`): kept in the host record, not meta.json.
    package var feedURL: String?
    /// Every archive URL, in the order this host tries them: kept in the host record.
    package var urls: [String]
    /// How it arrived in Zeal's terms: decides Zeal's members of `meta.json` (`feed_url`, `urls`, the version form).
    package var arrival: ZealArrival = .file
    /// The docset's bundle identifier (from an Apple feed's `docset:identifier`).
    package var identifier: String?
    /// Where the archive was downloaded from.
    package var sourceURL: String?
    /// The archive's SHA-256 when the caller already computed it (lowercase hex); computed here otherwise.
    package var archiveSHA256: String?
    /// The feed entry's `updated` date, recorded so a republished entry of the same version is recognised as new.
    package var updated: Date?
    /// From a catalogue: Zeal's `extra` members (`indexFilePath`, `isJavaScriptEnabled`, `keywords`) for `meta.json`.
    package var extra: [String: JSONValue] = [:]
    /// From a catalogue: `icon.png` / `icon@2x.png` contents, written beside `meta.json` when the archive has none.
    package var icons: [String: [UInt8]] = [:]
    /// How the docset keeps its documents (`[install] layout`, or `docsync install --layout`).
    package var layout: InstallLayout = .extracted
    /// The tarix layout: a publisher's index (`tarixIndex.db` from `<url>.tarix`), trusted only once checked in full
    /// against the archive; nil: docsync builds the index.
    package var tarixIndex: String?

    package init(
        name: String, title: String? = nil, version: String? = nil, revision: String? = nil, feedURL: String? = nil,
        urls: [String] = [], identifier: String? = nil, sourceURL: String? = nil, archiveSHA256: String? = nil,
        updated: Date? = nil
    ) {
        self.name = name
        self.title = title
        self.version = version
        self.revision = revision
        self.feedURL = feedURL
        self.urls = urls
        self.identifier = identifier
        self.sourceURL = sourceURL
        self.archiveSHA256 = archiveSHA256
        self.updated = updated
    }

    /// Why `name` cannot be a docset folder name, or nil when it can (one safe path component, not hidden, and short
    /// enough for `NAME.docset` and docsync's `NAME@ID` version folders).
    static func problem(with name: String) -> String? {
        if let problem = PathComponent.problem(name) { return problem }
        if name.utf8.count > 200 { return "longer than 200 bytes" }
        if name.hasPrefix(".") { return "starts with '.'" }
        return nil
    }
}

/// How an `Installer` behaves.
package struct InstallConfiguration: Sendable, Equatable {
    package var limits: InstallLimits
    /// How long a replaced or removed version stays on disk for readers that resolved it earlier.
    package var gracePeriod: Duration
    /// Free-space preflight: unpacked size assumed per archive byte (a tgz of HTML unpacks to ~4–5×).
    package var assumedExpansion: Int64
    /// Free-space preflight: inodes assumed per archive byte (one file per this many archive bytes).
    package var archiveBytesPerFile: Int64
    /// Replace a `NAME.docset` folder docsync did not create, moving it aside into `.docsync/foreign/` (kept, never
    /// deleted). False: such a folder is reported and left alone.
    package var replaceForeign: Bool
    /// How long the root's change log keeps a record (`[changes] keep`).
    package var changesKeep: Duration

    package init(
        limits: InstallLimits = InstallLimits(), gracePeriod: Duration = .seconds(600), assumedExpansion: Int64 = 4,
        archiveBytesPerFile: Int64 = 2048, replaceForeign: Bool = false, changesKeep: Duration = .seconds(31_536_000)
    ) {
        self.replaceForeign = replaceForeign
        self.changesKeep = changesKeep
        self.limits = limits
        self.gracePeriod = gracePeriod
        self.assumedExpansion = assumedExpansion
        self.archiveBytesPerFile = archiveBytesPerFile
    }
}
