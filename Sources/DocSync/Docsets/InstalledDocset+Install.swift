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

extension InstalledDocset {
    /// Takes over the docset folder `<root>/<folder>.docset` another tool (Zeal) made, without downloading: moved
    /// unchanged into the version store with `<root>/<name>.docset` linked to it, in one atomic rename
    /// (`docsync adopt`). Throws the installer's error naming the folder.
    package static func adopt(folder: String, in root: String, as name: String) async throws -> InstalledDocset {
        InstalledDocset(try await Installer(root: root).adopt(folder: folder, as: name))
    }
}
