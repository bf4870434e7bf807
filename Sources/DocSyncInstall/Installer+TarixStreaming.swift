import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

extension Installer {
    /// A tarix store built while its archive downloads, in a staging folder of its own until the docset's tree is
    /// extracted (`placeStreamedTarixStore`).
    struct StreamedTarixStore {
        /// The staging folder's name (the caller discards it, empty or not, when the install ends).
        let folderName: String
        let folder: DirectoryHandle
        let result: TarixStoreResult
    }

    /// The tarix layout's two-pass install of a download still growing (the archive must be re-encoded, or the
    /// publisher's index was refused): the store is built first, its walk and re-encode reading the partial file as
    /// it arrives (each read waits for durable bytes; a failed, cancelled or restarted download stops it), so the
    /// costly pass overlaps the transfer; the tree outside `Documents/` is extracted afterwards from the bytes on
    /// disk. Throws after discarding the folder.
    func buildStreamedTarixStore(
        from growing: GrowingFileSource, store: VersionStore, publisherIndex: String?
    ) throws(InstallError) -> StreamedTarixStore {
        guard let tarixStore else { throw .unreadableArchive("the tarix layout is not available") }
        let (folderName, folder) = try store.makeStaging()
        do {
            let result = try tarixStore(growing, growing.displayName, folder.fd, folder.path, publisherIndex)
            return StreamedTarixStore(folderName: folderName, folder: folder, result: result)
        } catch {
            store.discardStaging(folderName)
            // The download failed, restarted or was cancelled under the walk: that, not the walk's error.
            if growing.stopReason != nil {
                do { try growing.awaitVerifiedEnd() } catch { throw .io(error) }
            }
            if let error = error as? InstallError { throw error }
            throw .unreadableArchive("tarix store: \(error)")
        }
    }

    /// After extraction and the download's verified end: moves the store's files into the staged docset's
    /// `Contents/Resources` (a file of that name already there is a conflict) and records them in the manifest.
    /// Returns the store archive's SHA-256 (hashed from disk) and the bytes added. `archiveSHA256`: the verified
    /// download's, which a store archive kept as it is (a byte copy) must have.
    func placeStreamedTarixStore(
        _ built: StreamedTarixStore, into staging: DirectoryHandle, recorder: ManifestRecorder, archiveSHA256: String?
    ) throws(InstallError) -> (sha256: String, bytes: Int64) {
        guard let contents = try? staging.base.existingDirectory("Contents"),
            let resources = try? contents.existingDirectory("Resources")
        else { throw .notADocset(missing: [DocsetValidator.index]) }
        var bytes: Int64 = 0
        var sha256 = ""
        for path in TarixStoreResult.files {
            let name = String(path.split(separator: "/").last!)
            do {
                try built.folder.base.rename(name, to: resources, as: name, mode: .noReplace)
            } catch {
                throw .io(error)
            }
            guard let st = resources.status(name), st.st_mode & S_IFMT == S_IFREG else {
                throw .io(SystemError("fstatat", path: "\(resources.path)/\(name)", code: ENOENT))
            }
            bytes += Int64(st.st_size)
            let recorded = try recorder.rerecord(path, below: staging)
            guard name == TarixOnePass.archiveFileName else { continue }
            guard let recorded else {
                throw .io(SystemError("open", path: "\(resources.path)/\(name)", code: ENOENT))
            }
            // Kept as it is (rare here: a refused index over a flushed archive), the copy must be the verified bytes.
            if built.result.mode == "indexed", let archiveSHA256, archiveSHA256.lowercased() != recorded {
                throw .unreadableArchive(
                    "\(resources.path)/\(name): its SHA-256 is \(recorded), not the download's \(archiveSHA256)")
            }
            sha256 = recorded
        }
        return (sha256, bytes)
    }
}
