import DocSyncSupport
import Foundation

/// An installed docset as a reader should use it. `path` is the resolved folder of one immutable version: it keeps
/// the same content while the reader uses it, even if a newer version is installed meanwhile (the replaced version
/// is kept for the installer's grace period). Two types on purpose: this is the install stage's record (with the
/// install-only `urls`, `zeal` and `layout`); `DocSync.InstalledDocset` is the product's value built from it, whose
/// JSON keys are a released schema.
public struct InstallRecord: Sendable, Equatable, Codable {
    public var name: String
    public var title: String
    public var version: String?
    public var revision: String?
    public var identifier: String?
    /// The resolved docset folder (`<root>/.docsync/versions/<NAME>@<id>`, or `<root>/<NAME>.docset` for a docset
    /// installed by something else).
    public var path: String
    /// `path` + `/Contents/Resources/docSet.dsidx`.
    public var indexPath: String
    public var installedAt: Date?
    public var archiveSHA256: String?
    /// Bytes of file data unpacked (recorded at install time; nil when not installed by docsync).
    public var sizeOnDisk: Int64?
    public var fileCount: Int?
    /// The feed it was installed from (Zeal's `feed_url`).
    public var feedURL: String? = nil
    /// The archive URL it was downloaded from.
    public var sourceURL: String? = nil
    /// The feed entry's `updated` date at install time (Atom republications of one version compare by it).
    public var updated: Date? = nil
    /// Every archive URL, in the order this host tries them (from the host record, or meta.json's `urls`).
    public var urls: [String] = []
    /// How Zeal's members of its `meta.json` came to be (nil when it has no meta.json).
    package var zeal: ZealArrival? = nil
    /// How the docset keeps its documents (`tarix`: `Contents/Resources/tarix.tgz` and `tarixIndex.db`).
    package var layout: InstallLayout = .extracted
}

extension InstallRecord {
    /// The record of the docset folder `path` reached as `<root>/<stem>.docset`, from its `meta.json` (nil: a
    /// docset without one) and this host's record of the install (nil: installed before host records, when
    /// `meta.json` kept those facts).
    init(name stem: String, path: String, meta: DocsetMetadata?, host: HostRecord?) {
        let record = meta?.extra?.docsync
        let feed = host?.feed ?? record?.origin ?? meta?.feedURL
        self.init(
            name: meta?.name ?? stem, title: meta?.title ?? stem, version: record?.version ?? meta?.version,
            revision: record?.revision ?? meta?.revision, identifier: record?.identifier, path: path,
            indexPath: "\(path)/\(DocsetValidator.index)",
            installedAt: (host?.installedAt ?? record?.installedAt).flatMap(DocsetMetadata.date),
            archiveSHA256: record?.archiveSHA256, sizeOnDisk: record?.unpackedBytes,
            fileCount: record?.fileCount, feedURL: feed?.redactingCredentials,
            sourceURL: (host?.sourceURL ?? record?.sourceURL)?.redactingCredentials,
            updated: record?.entryUpdated.flatMap(DocsetMetadata.date),
            urls: host?.urls ?? meta?.urls ?? [], zeal: meta.map(Installer.arrival))
        if record?.layout == InstallLayout.tarix.rawValue { layout = .tarix }
    }
}
