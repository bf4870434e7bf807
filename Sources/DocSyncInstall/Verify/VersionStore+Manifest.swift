import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `<root>/.docsync/manifests/<NAME@ID>`: the `TreeManifest` of each version, written before the version is
/// published, dropped with it.
extension VersionStore {
    func manifests() throws(InstallError) -> DirectoryHandle { try state.directory("manifests", create: true) }

    /// Records what the staged tree holds, durably, under the name the version will get.
    func recordManifest(of staged: DirectoryHandle, for version: String) throws(InstallError) {
        do {
            let manifest = try TreeManifest.build(staged.base)
            try manifests().base.writeFileAtomically(version, manifest.encoded())
        } catch let error as InstallError {
            throw error
        } catch let error as SystemError {
            throw .io(error)
        } catch {
            throw .io(SystemError("manifest", path: staged.path, code: EIO))
        }
    }

    func dropManifest(_ version: String) { try? manifests().unlink(version) }

    func manifest(of version: String) -> TreeManifest? {
        guard let bytes = try? manifests().base.readFile(version, limit: 256 << 20) else { return nil }
        return TreeManifest(decoding: bytes)
    }

    /// Manifests whose version is gone (a crash between a version's deletion and its manifest's).
    func dropOrphanedManifests() throws(InstallError) {
        for entry in try manifests().entries() where try versions.status(entry.name) == nil {
            try manifests().unlink(entry.name)
        }
    }
}
