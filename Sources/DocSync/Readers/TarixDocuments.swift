internal import DocSyncSupport
internal import DocSyncTarix

#if canImport(Glibc)
    import Glibc
#endif

/// Reading one page of a tarix docset (`Contents/Resources/tarix.tgz` + `tarixIndex.db`, no `Documents/` folder):
/// one index lookup (without case, as Zeal looks paths up) and one bounded raw inflate from the record's flush
/// point (`TarixArchive`). Both files are opened without following links, below the docset's folder.
enum TarixDocuments {
    /// The page (relative to `Documents/`, already split into checked components) from the store of the docset
    /// open as `base` (`folder` names it in messages); at most `limit` bytes.
    static func read(_ components: [String], base: Int32, folder: String, limit: Int) -> Result<
        [UInt8], ContainedFile.Failure
    > {
        switch open(base: base, folder: folder, limit: limit) {
        case .failure(let failure): return .failure(failure)
        case .success(let archive): return read(components, archive: archive, folder: folder)
        }
    }

    /// The store of the docset open as `base`, open for reads of at most `limit` bytes each (thread-safe: one
    /// open store serves concurrent reads). `mappingUpTo` > 0: an index of at most that many rows is read into
    /// memory once (for a store kept open for many reads; see `TarixArchive`).
    static func open(base: Int32, folder: String, limit: Int, mappingUpTo maxMapped: Int = 0) -> Result<
        TarixArchive, ContainedFile.Failure
    > {
        var limits = TarixLimits()
        limits.maxDocumentBytes = Int64(max(0, limit))
        do {
            let resources = try SafeDirectory.duplicating(base, path: folder).directory("Contents").directory(
                "Resources")
            return .success(try TarixArchive(resources: resources, limits: limits, mappingUpTo: maxMapped))
        } catch let error as TarixError {
            return .failure(failure(error, folder: folder))
        } catch let error as SystemError {
            return .failure(.io(error))
        } catch {
            return .failure(.io(SystemError("open", path: "\(folder): \(error)", code: EIO)))
        }
    }

    /// The page from an open store.
    static func read(_ components: [String], archive: TarixArchive, folder: String) -> Result<
        [UInt8], ContainedFile.Failure
    > {
        var failed: TarixError?
        for path in storePaths(components, archive: archive) {
            do throws(TarixError) {
                return .success(try archive.read(path))
            } catch {
                if error.kind == "not_found", archive.isDirectory(path) { return .failure(.notRegular) }
                if error.kind != "not_found" { return .failure(failure(error, folder: folder)) }
                failed = failed ?? error
            }
        }
        return .failure(failed.map { failure($0, folder: folder) } ?? .notFound)
    }

    /// Where a page may be in a store, tried in order: under `Documents/`, then where the links docsync makes for
    /// Apple's layout in the extracted layout would lead (`ReaderLayoutPreparation`; a store holds no links):
    /// `Documents/Documentation/…` → `Documentation/…`, and with no `Documents/` folder, `Documents/…` →
    /// `Documentation/…` (the text index names Apple's pages so: `TarixPageNaming`).
    static func storePaths(_ components: [String], archive: TarixArchive) -> [String] {
        let page = components.joined(separator: "/")
        var paths = [TarixPageNaming.documents + page]
        if components.first == "Documentation" { paths.append("Contents/Resources/" + page) }
        if !archive.isDirectory(String(TarixPageNaming.documents.dropLast())) {
            paths.append(TarixPageNaming.documentation + page)
        }
        return paths
    }

    /// The page from an open store, inflated straight into the storage `output` makes (see
    /// `TarixArchive.read(_:withoutWaitingUpTo:into:)`); with `withoutWaitingUpTo`, nil when that cannot be done
    /// without waiting.
    static func read<Output>(
        _ components: [String], archive: TarixArchive, folder: String, withoutWaitingUpTo inlineBytes: Int? = nil,
        into output: (_ size: Int, _ fill: (UnsafeMutableRawBufferPointer) -> Bool) -> Output
    ) -> Result<Output?, ContainedFile.Failure> {
        let path = "Contents/Resources/Documents/" + components.joined(separator: "/")
        do throws(TarixError) {
            return .success(try archive.read(path, withoutWaitingUpTo: inlineBytes, into: output))
        } catch {
            if error.kind == "not_found", archive.isDirectory(path) { return .failure(.notRegular) }
            guard error.kind == "not_found" else { return .failure(failure(error, folder: folder)) }
        }
        // Apple's layout: the page is elsewhere in the store (rarely asked: only when `Documents/` has no such page).
        for other in storePaths(components, archive: archive).dropFirst() where archive.exists(other) {
            do throws(TarixError) {
                return .success(try archive.read(other, withoutWaitingUpTo: inlineBytes, into: output))
            } catch {
                return .failure(failure(error, folder: folder))
            }
        }
        return .failure(.notFound)
    }

    private static func failure(_ error: TarixError, folder: String) -> ContainedFile.Failure {
        switch error.kind {
        case "not_found": return .notFound
        case "too_large":
            let size = error.message.split(separator: " ").first.flatMap { Int64($0) } ?? 0
            return .tooLarge(size)
        case "unsupported_entry": return .notRegular
        default:
            return .io(SystemError("tarix", path: "\(folder): \(error)", code: EIO))
        }
    }
}
