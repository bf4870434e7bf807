import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

extension Installer {
    /// What a one-pass tarix install made: the extraction's result (the tree outside `Documents/`, with the store's
    /// files counted), the store, and the store archive's SHA-256.
    struct TarixOnePassOutcome {
        var extraction: ExtractionResult
        var store: TarixStoreResult
        var sha256: String
    }

    /// What one attempt at a one-pass tarix install came to.
    enum TarixOnePassAttempt {
        case installed(TarixOnePassOutcome)
        /// The archive is not flushed at every record (found at its first document): start over, re-encoding.
        case notFlushed
        /// The publisher's index was refused, or the store's walk refused the archive: install in two passes.
        case twoPasses
    }

    /// The tarix layout for an archive file in one pass: the builder's walk inflates the archive once while
    /// `TarixOnePass` hashes its bytes (copying them when the archive is kept as it is: flushed at every record, or
    /// with a publisher's index) and extracts every record outside `Documents/` into `staging` (each judged by
    /// `EntryPolicy`); with `reencoding`, the builder re-encodes the archive into the store in the same walk. Then the
    /// store's files move from a staging folder of their own into the docset's `Contents/Resources` and into the
    /// manifest.
    ///
    /// `.notFlushed` when an archive to keep turns out to need re-encoding, `.twoPasses` when the publisher's index
    /// is refused or the store's walk refuses the archive: the caller discards `staging` and starts over (a
    /// re-encoding pass, or two passes, which report what they report today). An entry refused by extraction's
    /// rules, or a failed write, fails the install here.
    func installTarixInOnePass(
        _ source: FileArchiveSource, store: VersionStore, staging: DirectoryHandle, recorder: ManifestRecorder,
        request: InstallRequest, reencoding: Bool = false
    ) throws(InstallError) -> TarixOnePassAttempt {
        guard let onePass = tarixStore?.onePass else { return .twoPasses }
        let archive = open(source.path, O_RDONLY | O_CLOEXEC)
        guard archive >= 0 else { throw .io(SystemError("open", path: source.path)) }
        defer { close(archive) }
        var archiveStatus = stat()
        guard fstat(archive, &archiveStatus) == 0 else { throw .io(SystemError("fstat", path: source.path)) }
        _ = posix_fadvise(archive, 0, 0, POSIX_FADV_SEQUENTIAL)
        let (folderName, folder) = try store.makeStaging()
        defer { store.discardStaging(folderName) }
        let built: TarixStoreResult?
        let extraction: ExtractionResult
        do {
            let pass = try TarixOnePass(
                archiveFD: archive, archiveName: source.displayName, folder: folder, staging: staging,
                recorder: recorder, limits: configuration.limits, archiveBytes: Int64(archiveStatus.st_size),
                reencodes: reencoding)
            do {
                built = try onePass(pass, reencoding ? nil : request.tarixIndex)
            } catch {
                if let failure = pass.failure { throw failure }
                return .twoPasses
            }
            if let failure = pass.failure { throw failure }
            guard built != nil else { return reencoding ? .twoPasses : .notFlushed }
            extraction = try pass.finish()
        }
        guard let built, let digest = extraction.archiveDigest else { return .twoPasses }
        let storeDigest: SHA256.Digest
        if reencoding {
            // The re-encoded archive's digest, computed by the builder from the bytes it wrote.
            guard let written = built.archiveSHA256.flatMap(SHA256.Digest.init(hex:)) else { return .twoPasses }
            storeDigest = written
        } else {
            storeDigest = digest  // a byte copy of the archive
        }
        // A kept archive becomes the store: it must be the bytes it was downloaded with. A re-encoded one is checked
        // as the two-pass install checks it (the request's digest may be a relayout's carried-over publisher digest).
        if !reencoding, let known = request.archiveSHA256, known.lowercased() != digest.description {
            throw .unreadableArchive(
                "\(source.displayName): its SHA-256 is \(digest), not the \(known) it was downloaded with "
                    + "(the file changed since)")
        }
        guard let contents = try? staging.base.existingDirectory("Contents"),
            let resources = try? contents.existingDirectory("Resources")
        else { throw .notADocset(missing: [DocsetValidator.index]) }
        var result = extraction
        for path in TarixStoreResult.files {
            let name = String(path.split(separator: "/").last!)
            // No replacing: a file of that name in the archive is a conflict, as the two-pass builder's O_EXCL makes it.
            do {
                try folder.base.rename(name, to: resources, as: name, mode: .noReplace)
            } catch {
                throw .io(error)
            }
            let components = path.split(separator: "/").map { Array($0.utf8) }
            guard let st = resources.status(name), st.st_mode & S_IFMT == S_IFREG else {
                throw .io(SystemError("fstatat", path: "\(resources.path)/\(name)", code: ENOENT))
            }
            if name == TarixOnePass.archiveFileName {
                // A byte copy of the archive, or its re-encoding: hashed as it was written.
                try recorder.file(components[...], size: Int64(st.st_size), digest: storeDigest)
            } else {
                try recorder.rerecord(path, below: staging)
            }
            result.bytesWritten += Int64(st.st_size)
            result.fileCount += 1
        }
        return .installed(TarixOnePassOutcome(extraction: result, store: built, sha256: storeDigest.description))
    }
}
