extension Installer {
    /// Throws `InstallError.foreign` when `<root>/<name>.docset` is something docsync did not create (a folder,
    /// unless `replaceForeign`; a file; a link not into `.docsync/versions/`), before anything is downloaded.
    package func checkReplaceable(name: String) throws(InstallError) {
        if let problem = InstallRequest.problem(with: name) { throw .invalidName(name, reason: problem) }
        let store = try VersionStore(root: root)
        store.replaceForeign = configuration.replaceForeign
        try store.checkReplaceable(name)
    }
}
