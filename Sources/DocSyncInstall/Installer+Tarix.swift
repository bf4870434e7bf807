import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

extension Installer {
    /// The tarix layout, after extraction (which left `Contents/Resources/Documents/` out) and once the source is
    /// verified: runs `tarixStore` over the complete archive file into the staged `Contents/Resources`, records both
    /// files in the manifest, and returns what was built, the store archive's SHA-256 and the bytes added.
    func buildTarixStore(
        from source: any ArchiveSource, into staging: DirectoryHandle, recorder: ManifestRecorder,
        publisherIndex: String?
    ) throws(InstallError) -> (result: TarixStoreResult, sha256: String, bytes: Int64)
    {
        guard let tarixStore else { throw .unreadableArchive("the tarix layout is not available") }
        guard let file = source.completedFile else {
            throw .unreadableArchive("\(source.displayName): the tarix layout needs the archive as a file")
        }
        guard let contents = try? staging.base.existingDirectory("Contents"),
            let resources = try? contents.existingDirectory("Resources")
        else { throw .notADocset(missing: [DocsetValidator.index]) }
        let archive = open(file, O_RDONLY | O_CLOEXEC)
        guard archive >= 0 else { throw .io(SystemError("open", path: file)) }
        defer { close(archive) }
        let result: TarixStoreResult
        do {
            result = try tarixStore(archive, source.displayName, resources.fd, resources.path, publisherIndex)
        } catch let error as InstallError {
            throw error
        } catch {
            throw .unreadableArchive("tarix store: \(error)")
        }
        var bytes: Int64 = 0
        var sha256 = ""
        for path in TarixStoreResult.files {
            try recorder.rerecord(path, below: staging)
            let name = String(path.split(separator: "/").last!)
            if name == "tarix.tgz" {
                do { (sha256, _) = try resources.digest(of: name) } catch { throw .io(error) }
            }
            bytes += Int64(resources.status(name)?.st_size ?? 0)
        }
        return (result, sha256, bytes)
    }
}
