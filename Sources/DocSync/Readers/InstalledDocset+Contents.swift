internal import DocSyncInstall
internal import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

extension InstalledDocset {
    /// The default bound of ``contents(of:maximumBytes:)``: 64 MiB.
    public static let maximumDocumentBytes = 64 << 20

    /// The bytes of one page of this docset, by its path relative to the documents folder
    /// (`Contents/Resources/Documents`), as entries report it (no fragment, no percent-encoding).
    ///
    /// The path never leaves the docset: absolute paths, `..` components, NUL and control characters, and overlong
    /// paths are refused as they are; every component, symlinks included, is resolved by the kernel beneath the
    /// docset's folder (`openat2` with `RESOLVE_BENEATH`), so a symlink pointing outside it is refused, atomically,
    /// while links inside it (Apple's `Documents/Documentation -> ../Documentation`) are followed. Only regular
    /// files are read (a FIFO is refused without blocking), at most `maximumBytes`. The read runs on the library's
    /// bounded pool of blocking threads (``DocumentError/io`` when the system refuses it a thread). Read a ``DocsetLease``'s docset to be sure the version is not pruned meanwhile.
    ///
    /// Both layouts (``Layout``): from a tarix docset the page is read out of `Contents/Resources/tarix.tgz` —
    /// one lookup in `tarixIndex.db` (without case, as Zeal looks paths up) and one inflate bounded by the
    /// record — with the same path checks and errors; links do not exist in a tarix store.
    public func contents(of page: String, maximumBytes: Int = maximumDocumentBytes) async throws(DocumentError)
        -> [UInt8]
    {
        let docset = self
        return try await BlockingPool.shared.perform(refused: { Self.refused($0, docset: docset.name, page: page) }) {
            () throws(DocumentError) in try docset.contentsBlocking(of: page, maximumBytes: maximumBytes)
        }
    }

    /// The ``DocumentError/io`` of a read the library's pool did not run (the system refused it a thread).
    static func refused(_ refusal: BlockingPool.Refusal, docset: String, page: String) -> DocumentError {
        .make(.io, docset: docset, page: String(page.escapingControlCharacters.prefix(300)), message: "\(refusal)")
    }

    /// ``contents(of:maximumBytes:)`` on the calling thread, for callers that run their blocking work on threads
    /// of their own (`docsync serve`'s pool): the same checks, layouts and errors.
    package func contentsBlocking(of page: String, maximumBytes: Int = maximumDocumentBytes) throws(DocumentError)
        -> [UInt8]
    {
        let folder = path
        let result: Result<[UInt8], ContainedFile.Failure> = {
            let base = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard base >= 0 else { return .failure(.io(SystemError("open", path: folder))) }
            defer { close(base) }
            // The page's own checks first, so that `..` is reported as the page's fault.
            let components: [String]
            switch ContainedFile.components(page) {
            case .failure(let problem): return .failure(problem)
            case .success(let parts): components = parts
            }
            if TarixStore.holdsDocuments(base) {
                return TarixDocuments.read(components, base: base, folder: folder, limit: maximumBytes)
            }
            return Result { () throws(ContainedFile.Failure) in
                try ContainedFile.read(
                    "Contents/Resources/Documents/\(page)", below: base, limit: max(0, maximumBytes))
            }
        }()
        switch result {
        case .success(let bytes): return bytes
        case .failure(let failure): throw Self.error(failure, docset: name, page: page, limit: maximumBytes)
        }
    }

    static func error(_ failure: ContainedFile.Failure, docset: String, page: String, limit: Int) -> DocumentError {
        let shown = page.escapingControlCharacters
        let (kind, message): (DocumentError, String) =
            switch failure {
            case .invalidPath(let reason): (.invalidPath, "not a page path: \(reason)")
            case .outside: (.outsideDocset, "resolves outside the docset; refused")
            case .notFound: (.notFound, "no such page")
            case .notRegular: (.notRegularFile, "not a regular file")
            case .tooLarge(let size): (.tooLarge, "\(size) bytes is more than the \(limit) asked for")
            case .io(let error): (.io, "\(error)")
            case .wouldBlock: (.io, "needs the disk; opened without waiting")
            }
        return .make(kind, docset: docset, page: String(shown.prefix(300)), message: message)
    }
}
