package import DocSyncInstall

extension InstalledDocset {
    /// The docset the installer's record carries (`record.docset`).
    package init(_ record: InstallRecord) { self = record.docset }
}

extension InstalledDocset {
    /// Takes over the docset folder `<root>/<folder>.docset` another tool (Zeal) made, without downloading: moved
    /// unchanged into the version store with `<root>/<name>.docset` linked to it, in one atomic rename
    /// (`docsync adopt`). Throws the installer's error naming the folder.
    package static func adopt(folder: String, in root: String, as name: String) async throws -> InstalledDocset {
        let installer = Installer(root: root, prepareTree: nil, tarixStore: nil, describeContent: ContentScan.scan)
        return InstalledDocset(try await installer.adopt(folder: folder, as: name))
    }
}
