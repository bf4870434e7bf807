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

    /// The tarix layout in one pass: the builder's walk inflates the archive once while `TarixOnePass` hashes its
    /// bytes (copying them when the archive is kept as it is: flushed at every record, or with a publisher's index)
    /// and extracts every record outside `Documents/` into `staging` (each judged by `EntryPolicy`); with
    /// `reencoding`, the builder re-encodes the archive into the store in the same walk. Then the store's files move
    /// from a staging folder of their own into the docset's `Contents/Resources` and into the manifest. The archive
    /// is a file, or a download still growing (`GrowingFileSource`): the walk's reads wait for its bytes, and nothing
    /// is kept before the download's verified end, whose SHA-256 must be the one hashed in this pass.
    ///
    /// `.notFlushed` when an archive to keep turns out to need re-encoding, `.twoPasses` when the publisher's index
    /// is refused or the store's walk refuses the archive: the caller discards `staging` and starts over (a
    /// re-encoding pass, or two passes, which report what they report today). An entry refused by extraction's
    /// rules, a failed write, or a download that failed or restarted (the caller installs again from byte 0) fails
    /// the install here.
    func installTarixInOnePass(
        _ source: any ArchiveSource, store: VersionStore, staging: DirectoryHandle, recorder: ManifestRecorder,
        request: InstallRequest, reencoding: Bool = false
    ) throws(InstallError) -> TarixOnePassAttempt {
        let onePass = TarixStore.onePass
        let reading: any ByteSource
        var knownBytes: Int64?
        var archive: Int32 = -1
        defer { if archive >= 0 { close(archive) } }
        let growing = source as? GrowingFileSource
        if let file = source as? FileArchiveSource {
            archive = open(file.path, O_RDONLY | O_CLOEXEC)
            guard archive >= 0 else { throw .io(SystemError("open", path: file.path)) }
            var archiveStatus = stat()
            guard fstat(archive, &archiveStatus) == 0 else { throw .io(SystemError("fstat", path: file.path)) }
            _ = posix_fadvise(archive, 0, 0, POSIX_FADV_SEQUENTIAL)
            reading = FileByteSource(fd: archive, name: file.path)
            knownBytes = Int64(archiveStatus.st_size)
        } else if let growing {
            reading = growing
        } else {
            return .twoPasses
        }
        let (folderName, folder) = try store.makeStaging()
        defer { store.discardStaging(folderName) }
        let built: TarixStoreResult?
        let extraction: ExtractionResult
        do {
            let pass = try TarixOnePass(
                archive: reading, archiveName: source.displayName, folder: folder, staging: staging,
                recorder: recorder, limits: configuration.limits, archiveBytes: knownBytes, reencodes: reencoding)
            do {
                built = try onePass(pass, reencoding ? nil : request.tarixIndex)
            } catch {
                if let failure = pass.failure { throw failure }
                // The download failed, restarted or was cancelled under the walk: that, not the walk's error.
                if let growing, growing.stopReason != nil {
                    do { try growing.awaitVerifiedEnd() } catch { throw .io(error) }
                }
                return .twoPasses
            }
            if let failure = pass.failure { throw failure }
            guard built != nil else { return reencoding ? .twoPasses : .notFlushed }
            if let growing {
                // The walk read to the end of the gzip stream: nothing is kept before the download is verified.
                do { try growing.awaitVerifiedEnd() } catch { throw .io(error) }
                knownBytes = growing.byteCount
            }
            extraction = try pass.finish(archiveBytes: knownBytes ?? -1)
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
        // What was walked must be what was downloaded. A kept archive becomes the store: it must be the bytes it was
        // downloaded with. A re-encoded file is checked as the two-pass install checks it (the request's digest may
        // be a relayout's carried-over publisher digest).
        let downloaded = growing?.verifiedSHA256 ?? (reencoding ? nil : request.archiveSHA256)
        if let known = downloaded, known.lowercased() != digest.description {
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
