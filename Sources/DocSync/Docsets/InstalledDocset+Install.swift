package import DocSyncInstall

extension InstalledDocset {
    /// The product view of the installer's record.
    package init(_ record: InstallRecord) {
        self.init(
            name: record.name, title: record.title, version: record.version, revision: record.revision,
            identifier: record.identifier, path: record.path, indexPath: record.indexPath,
            installedAt: record.installedAt, archiveSHA256: record.archiveSHA256, sizeOnDisk: record.sizeOnDisk,
            fileCount: record.fileCount, feedURL: record.feedURL, sourceURL: record.sourceURL,
            updated: record.updated)
        layout = record.layout == .tarix ? .tarix : .extracted
    }
}
