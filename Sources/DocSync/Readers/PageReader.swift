internal import DocSyncSupport
internal import DocSyncTarix
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One page opened for a server: the open file of the extracted layout (read by the receiver straight into its own
/// buffer, no copy in between) or the bytes inflated from a tarix store.
package enum PageContents: Sendable {
    /// The page's regular file, opened beneath the docset folder; the receiver reads it (at most `size` bytes: a
    /// file that grew meanwhile is cut there) and closes `descriptor`.
    case file(descriptor: Int32, size: Int)
    /// The page's bytes (a tarix record, inflated).
    case bytes([UInt8])
}

/// Opens pages of docset folders for a long-running reader (`docsync serve`), with every check of
/// ``InstalledDocset/contents(of:maximumBytes:)`` (the kernel's `RESOLVE_BENEATH` open of the extracted layout, the
/// path checks, the bounded tarix inflate), keeping per immutable version folder (`.docsync/versions/NAME@ID`)
/// what every read would otherwise redo: the folder's open descriptor, its layout, and for a tarix store the open
/// archive and index database (opening the SQLite index was most of a tarix page's cost).
///
/// At most `capacity` folders are kept; the least recently used is dropped first, and its descriptors close once
/// the last read using them ends. A kept folder pruned by a sync stays open until it is dropped (the server checks
/// that a version folder exists before reading it, and redirects when it does not). Blocking: call it on a thread
/// of your own. Thread-safe.
package final class PageReader: Sendable {
    /// What is kept of one version folder.
    private final class Folder: Sendable {
        let path: String
        let descriptor: Int32
        /// The open store of a tarix folder; nil for the extracted layout.
        let archive: TarixArchive?

        init(path: String, descriptor: Int32, archive: TarixArchive?) {
            self.path = path
            self.descriptor = descriptor
            self.archive = archive
        }

        deinit { close(descriptor) }
    }

    private struct State {
        var folders: [String: (folder: Folder, used: UInt64)] = [:]
        var clock: UInt64 = 0
    }

    /// The most folders kept open.
    package let capacity: Int
    /// The largest page read, in bytes (``DocumentError/tooLarge`` beyond).
    package let maximumBytes: Int
    private let state = Mutex(State())

    /// A reader keeping up to `capacity` version folders open, reading pages of at most `maximumBytes`.
    package init(capacity: Int = 16, maximumBytes: Int = InstalledDocset.maximumDocumentBytes) {
        self.capacity = max(1, capacity)
        self.maximumBytes = maximumBytes
    }

    /// The folders kept open now (for tests).
    package var keptFolders: Int { state.withLock { $0.folders.count } }

    /// Opens `page` (relative to the documents folder, as ``InstalledDocset/contents(of:maximumBytes:)`` takes it)
    /// of `docset`. `immutable` says the folder is a version folder, whose descriptor and store may be kept; other
    /// folders (a docset installed by something else, changed in place) are opened for this read only.
    package func open(_ page: String, of docset: InstalledDocset, immutable: Bool) throws(DocumentError)
        -> PageContents
    {
        let result: Result<PageContents, ContainedFile.Failure>
        if immutable {
            switch kept(docset.path) {
            case .failure(let failure): result = .failure(failure)
            case .success(let folder):
                result = Self.open(
                    page, base: folder.descriptor, archive: folder.archive, folder: folder.path, limit: maximumBytes)
            }
        } else {
            result = Self.openOnce(page, folder: docset.path, limit: maximumBytes)
        }
        switch result {
        case .success(let contents): return contents
        case .failure(let failure):
            throw InstalledDocset.error(failure, docset: docset.name, page: page, limit: maximumBytes)
        }
    }

    /// ``open(_:of:immutable:)`` for a version folder already kept with the extracted layout, without waiting for
    /// the disk: the page's file when every path component is in the kernel's lookup cache (`RESOLVE_CACHED`),
    /// else nil (as for a folder not kept yet, or a tarix store): then open it on a thread of your own. For a
    /// caller on a thread that must not block (the server's request handler), so that a page of a warm docset
    /// costs no thread hop. Reading the file may still wait: read it with `RWF_NOWAIT` there.
    package func openIfCached(_ page: String, of docset: InstalledDocset) throws(DocumentError) -> PageContents? {
        let folder = state.withLock { state -> Folder? in
            guard let entry = state.folders[docset.path], entry.folder.archive == nil else { return nil }
            state.clock += 1
            state.folders[docset.path] = (entry.folder, state.clock)
            return entry.folder
        }
        guard let folder else { return nil }
        do throws(ContainedFile.Failure) {
            _ = try ContainedFile.components(page).get()  // the page's own checks first, as `open` makes them
            let (descriptor, size) = try ContainedFile.openForReading(
                "Contents/Resources/Documents/\(page)", below: folder.descriptor, limit: max(0, maximumBytes),
                cachedOnly: true)
            return .file(descriptor: descriptor, size: size)
        } catch .wouldBlock {
            return nil
        } catch {
            throw InstalledDocset.error(error, docset: docset.name, page: page, limit: maximumBytes)
        }
    }

    /// The kept folder at `path`, opened (and its layout found) on first use.
    private func kept(_ path: String) -> Result<Folder, ContainedFile.Failure> {
        let found = state.withLock { state -> Folder? in
            guard let entry = state.folders[path] else { return nil }
            state.clock += 1
            state.folders[path] = (entry.folder, state.clock)
            return entry.folder
        }
        if let found { return .success(found) }
        let base = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard base >= 0 else { return .failure(.io(SystemError("open", path: path))) }
        var archive: TarixArchive?
        if TarixDocuments.isTarix(base) {
            switch TarixDocuments.open(base: base, folder: path, limit: maximumBytes) {
            case .success(let opened): archive = opened
            case .failure(let failure):
                close(base)
                return .failure(failure)
            }
        }
        let folder = Folder(path: path, descriptor: base, archive: archive)
        let (winner, dropped) = state.withLock { state -> (Folder, [Folder]) in
            state.clock += 1
            if let raced = state.folders[path] {  // another read opened it meanwhile: use that one
                state.folders[path] = (raced.folder, state.clock)
                return (raced.folder, [folder])
            }
            state.folders[path] = (folder, state.clock)
            var dropped: [Folder] = []
            while state.folders.count > capacity,
                let oldest = state.folders.min(by: { $0.value.used < $1.value.used })
            {
                dropped.append(oldest.value.folder)
                state.folders[oldest.key] = nil
            }
            return (folder, dropped)
        }
        withExtendedLifetime(dropped) {}  // closed here, outside the lock (or by the last read still using them)
        return .success(winner)
    }

    /// A page below `base`: the tarix record from `archive`, else the extracted file, opened beneath `base`.
    private static func open(_ page: String, base: Int32, archive: TarixArchive?, folder: String, limit: Int)
        -> Result<
        PageContents, ContainedFile.Failure
    > {
        let components: [String]
        switch ContainedFile.components(page) {
        case .failure(let problem): return .failure(problem)
        case .success(let parts): components = parts
        }
        if let archive {
            return TarixDocuments.read(components, archive: archive, folder: folder).map { .bytes($0) }
        }
        do throws(ContainedFile.Failure) {
            let (descriptor, size) = try ContainedFile.openForReading(
                "Contents/Resources/Documents/\(page)", below: base, limit: max(0, limit))
            return .success(.file(descriptor: descriptor, size: size))
        } catch {
            return .failure(error)
        }
    }

    /// A page of a folder that may change: everything opened for this read only.
    private static func openOnce(_ page: String, folder: String, limit: Int) -> Result<
        PageContents, ContainedFile.Failure
    > {
        let base = Glibc.open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard base >= 0 else { return .failure(.io(SystemError("open", path: folder))) }
        defer { close(base) }
        if case .failure(let problem) = ContainedFile.components(page) { return .failure(problem) }
        guard TarixDocuments.isTarix(base) else {
            return open(page, base: base, archive: nil, folder: folder, limit: limit)
        }
        switch TarixDocuments.open(base: base, folder: folder, limit: limit) {
        case .failure(let failure): return .failure(failure)
        case .success(let archive): return open(page, base: base, archive: archive, folder: folder, limit: limit)
        }
    }
}
