import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `<root>/.docsync/manifests/<NAME@ID>`: the `TreeManifest` of each version, written while the version is extracted
/// and named before it is published, dropped with it. `.building-<staging ID>`: one being written (a crash leaves it
/// orphaned; `recover()` deletes it).
extension VersionStore {
    /// The largest manifest read (about two million files).
    static let manifestLimit = 256 << 20

    func manifests() throws(InstallError) -> DirectoryHandle { try state.directory("manifests", create: true) }

    /// Starts the manifest of the tree being extracted into staging folder `stagingName`: recorded as the writer
    /// creates it (`ManifestRecorder`), under a dot-name until `commitManifest` gives it the version's name.
    func startManifest(for stagingName: String) throws(InstallError) -> ManifestRecorder {
        try ManifestRecorder(in: manifests(), name: ".building-\(stagingName)")
    }

    /// Names a finished manifest after its version, before the version is published (whose `syncfs` makes the
    /// rename and the manifest's bytes durable together with the tree).
    func commitManifest(_ recorder: ManifestRecorder, as version: String) throws(InstallError) {
        let folder = try manifests()
        try folder.rename(recorder.name, to: folder, as: version)
    }

    func dropManifest(_ version: String) { try? manifests().unlink(version) }

    /// The manifest of `version` (with `only`, the entries of those paths alone: `TreeManifest(decoding:only:)`).
    func manifest(of version: String, only: [String]? = nil) -> TreeManifest? {
        guard let bytes = try? manifests().base.readFile(version, limit: Self.manifestLimit) else { return nil }
        return TreeManifest(decoding: bytes, only: only)
    }

    /// The manifest of `version` read in order in bounded memory (`SortedManifest`, spilling to the state folder);
    /// nil when it is missing, unreadable, larger than `manifest(of:)` reads, or not a manifest.
    func sortedManifest(of version: String) -> SortedManifest? {
        guard let folder = try? manifests().base, let file = try? folder.openRegularFile(version) else { return nil }
        defer { close(file.fd) }
        guard file.size <= Self.manifestLimit else { return nil }
        return try? SortedManifest.read(fd: file.fd, path: folder.childPath(version), spillingInto: state.base)
    }

    /// Manifests whose version is gone (a crash between a version's deletion and its manifest's).
    func dropOrphanedManifests() throws(InstallError) {
        for entry in try manifests().entries() where try versions.status(entry.name) == nil {
            try manifests().unlink(entry.name)
        }
    }
}
