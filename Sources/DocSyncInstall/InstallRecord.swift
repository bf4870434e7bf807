import DocSyncDocset
import DocSyncSupport
import Foundation

/// The install stage's record of an installed docset: the ``InstalledDocset`` a reader is given (`docset`) plus what
/// only the installer uses (`urls`, `zeal`). Its members read and write the docset's facts directly
/// (`record.name`, `record.layout`), so the list of an installed docset's facts exists once, in `InstalledDocset`.
@dynamicMemberLookup
package struct InstallRecord: Sendable, Equatable {
    /// The docset as the product reports it (`SyncEvent.installed`, `docsync status --json`).
    package var docset: InstalledDocset
    /// Every archive URL, in the order this host tries them (from the host record, or meta.json's `urls`).
    package var urls: [String] = []
    /// How Zeal's members of its `meta.json` came to be (nil when it has no meta.json).
    package var zeal: ZealArrival? = nil

    /// The docset's fact at `member` (`record.path`, `record.installedAt`, …).
    package subscript<Value>(dynamicMember member: WritableKeyPath<InstalledDocset, Value>) -> Value {
        get { docset[keyPath: member] }
        set { docset[keyPath: member] = newValue }
    }

    /// A record from the docset's facts (``InstalledDocset``'s, with its `layout`) and the installer-only `urls`, `zeal`.
    init(
        name: String, title: String, version: String?, revision: String?, identifier: String?, path: String,
        indexPath: String, installedAt: Date?, archiveSHA256: String?, sizeOnDisk: Int64?, fileCount: Int?,
        feedURL: String? = nil, sourceURL: String? = nil, updated: Date? = nil, urls: [String] = [],
        zeal: ZealArrival? = nil, layout: InstallLayout = .extracted
    ) {
        docset = InstalledDocset(
            name: name, title: title, version: version, revision: revision, identifier: identifier, path: path,
            indexPath: indexPath, installedAt: installedAt, archiveSHA256: archiveSHA256, sizeOnDisk: sizeOnDisk,
            fileCount: fileCount, feedURL: feedURL, sourceURL: sourceURL, updated: updated)
        docset.layout = layout
        self.urls = urls
        self.zeal = zeal
    }
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
        if record?.layout == InstallLayout.tarix.rawValue { docset.layout = .tarix }
    }
}
