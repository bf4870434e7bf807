import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

extension Installer {
    /// The tarix layout, after extraction (which left `Contents/Resources/Documents/` out) and once the source is
    /// verified: runs `TarixStore.build` over the complete archive file into the staged `Contents/Resources`, records both
    /// files in the manifest, and returns what was built, the store archive's SHA-256 and the bytes added.
    /// `archiveSHA256`: the source file's SHA-256 when it was computed from its bytes during this install (the
    /// download's, or the extraction pass's); an archive kept as it is (`indexed`) is then not hashed again.
    func buildTarixStore(
        from source: any ArchiveSource, into staging: DirectoryHandle, recorder: ManifestRecorder,
        publisherIndex: String?, archiveSHA256: String?
    ) throws(InstallError) -> (result: TarixStoreResult, sha256: String, bytes: Int64)
    {
        guard let file = source.completedFile else {
            throw .unreadableArchive("\(source.displayName): the tarix layout needs the archive as a file")
        }
        guard let contents = try? staging.base.existingDirectory("Contents"),
            let resources = try? contents.existingDirectory("Resources")
        else { throw .notADocset(missing: [DocsetValidator.index]) }
        let archive = open(file, O_RDONLY | O_CLOEXEC)
        guard archive >= 0 else { throw .io(SystemError("open", path: file)) }
        defer { close(archive) }
        var archiveStatus = stat()
        guard fstat(archive, &archiveStatus) == 0 else { throw .io(SystemError("fstat", path: file)) }
        let result: TarixStoreResult
        do {
            result = try TarixStore.build(
                FileByteSource(fd: archive, name: file), source.displayName, resources.fd, resources.path,
                publisherIndex)
        } catch let error as InstallError {
            throw error
        } catch {
            throw .unreadableArchive("tarix store: \(error)")
        }
        var bytes: Int64 = 0
        var sha256 = ""
        for path in TarixStoreResult.files {
            let name = String(path.split(separator: "/").last!)
            if name == "tarix.tgz", result.mode == "indexed", let archiveSHA256,
                let digest = SHA256.Digest(hex: archiveSHA256),
                let copied = resources.status(name), copied.st_mode & S_IFMT == S_IFREG,
                copied.st_size == archiveStatus.st_size
            {
                // Kept as it is: the store archive is a byte copy of the source, whose digest this install
                // already computed from its bytes (hashing the copy again would be a third pass over it).
                let components = path.split(separator: "/").map { Array($0.utf8) }
                try recorder.file(components[...], size: Int64(copied.st_size), digest: digest)
                sha256 = archiveSHA256
                bytes += Int64(copied.st_size)
                continue
            }
            if name == "tarix.tgz", result.mode == "reencoded",
                let digest = result.archiveSHA256.flatMap(SHA256.Digest.init(hex:)),
                let written = resources.status(name), written.st_mode & S_IFMT == S_IFREG
            {
                // Re-encoded: hashed by the builder as it wrote it (not read back).
                let components = path.split(separator: "/").map { Array($0.utf8) }
                try recorder.file(components[...], size: Int64(written.st_size), digest: digest)
                sha256 = digest.description
                bytes += Int64(written.st_size)
                continue
            }
            // Else the manifest's digest of the store archive, read from disk as written, is the one recorded for it.
            let recorded = try recorder.rerecord(path, below: staging)
            if name == "tarix.tgz" {
                guard let recorded else {
                    throw .io(SystemError("open", path: "\(resources.path)/\(name)", code: ENOENT))
                }
                sha256 = recorded
            }
            bytes += Int64(resources.status(name)?.st_size ?? 0)
        }
        return (result, sha256, bytes)
    }
}
