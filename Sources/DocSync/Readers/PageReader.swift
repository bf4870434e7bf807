internal import DocSyncInstall
internal import DocSyncSupport
internal import DocSyncTarix
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Storage a tarix page is inflated into, made by the reader's caller (a server: its response buffer) once the
/// page's size is known and checked, so that the bytes are written once, where they are sent from.
package protocol InflatedPage: Sendable {
    /// Storage of `size` bytes, filled by calling `fill` once on exactly `size` writable bytes; nil when `fill`
    /// returns false (the read failed: the reader reports why).
    static func inflated(size: Int, fill: (UnsafeMutableRawBufferPointer) -> Bool) -> Self?
}

extension Array: InflatedPage where Element == UInt8 {
    /// A byte array of exactly `size` bytes.
    package static func inflated(size: Int, fill: (UnsafeMutableRawBufferPointer) -> Bool) -> [UInt8]? {
        var ok = false
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            ok = fill(UnsafeMutableRawBufferPointer(buffer))
            count = ok ? size : 0
        }
        return ok ? bytes : nil
    }
}

/// One page opened for a server: the open file of the extracted layout (read by the receiver straight into its own
/// buffer, no copy in between) or the bytes inflated from a tarix store into the receiver's storage.
package enum PageContents<Inflated: InflatedPage>: Sendable {
    /// The page's regular file, opened beneath the docset folder; the receiver reads it (at most `size` bytes: a
    /// file that grew meanwhile is cut there) and closes `descriptor`.
    case file(descriptor: Int32, size: Int)
    /// The page's bytes (a tarix record, inflated).
    case bytes(Inflated)
}

/// Opens pages of docset folders for a long-running reader (`docsync serve`), with every check of
/// ``InstalledDocset/contents(of:maximumBytes:)`` (the kernel's `RESOLVE_BENEATH` open of the extracted layout, the
/// path checks, the bounded tarix inflate), keeping per immutable version folder (`.docsync/versions/NAME@ID`)
/// what every read would otherwise redo: the folder's open descriptor, its layout, and for a tarix store the open
/// archive and index database (opening the SQLite index was most of a tarix page's cost).
///
/// A kept tarix store also keeps its index's locations in memory (stores of up to ``mappedDocuments`` documents,
/// 16 bytes each), so a page costs no SQLite query; and a small page (up to ``inlineBytes``) whose compressed
/// bytes are in the page cache is inflated by ``openIfCached(_:of:as:)`` on the caller's thread.
///
/// At most `capacity` folders are kept; the least recently used is dropped first, and its descriptors close once
/// the last read using them ends. A kept folder pruned by a sync stays open until it is dropped (the server checks
/// that a version folder exists before reading it, and redirects when it does not). Blocking: call it on a thread
/// of your own. Thread-safe.
package final class PageReader: Sendable {
    /// What is kept of one version folder.
    fileprivate final class Folder: Sendable {
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
    /// The most documents of one kept tarix store whose locations are held in memory (a larger store's pages are
    /// looked up in its index).
    package static let mappedDocuments = 131_072
    /// The largest tarix page ``openIfCached(_:of:as:)`` inflates on the caller's thread (about 0.1 ms of CPU).
    package static let inlineBytes = 64 << 10
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
        -> PageContents<[UInt8]>
    {
        try open(page, of: docset, immutable: immutable, as: [UInt8].self)
    }

    /// ``open(_:of:immutable:)`` with a tarix page inflated into storage of type `Inflated`.
    package func open<Inflated: InflatedPage>(
        _ page: String, of docset: InstalledDocset, immutable: Bool, as type: Inflated.Type
    ) throws(DocumentError) -> PageContents<Inflated> {
        let result: Result<PageContents<Inflated>, ContainedFile.Failure>
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

    /// ``openIfCached(_:of:as:)`` with a tarix page inflated into a byte array.
    package func openIfCached(_ page: String, of docset: InstalledDocset) throws(DocumentError)
        -> PageContents<[UInt8]>?
    {
        try openIfCached(page, of: docset, as: [UInt8].self)
    }

    /// ``open(_:of:immutable:)`` for a version folder already kept, without waiting for the disk. Extracted
    /// layout: the page's file when every path component is in the kernel's lookup cache (`RESOLVE_CACHED`);
    /// reading the file may still wait: read it with `RWF_NOWAIT` there. Tarix store: the page inflated here when
    /// its location is in memory, it is at most ``inlineBytes`` long and its compressed bytes are in the page cache.
    /// Else nil (as for a folder not kept yet): then open it on a thread of your own. For a caller on a thread that
    /// must not block (the server's request handler), so that a page of a warm docset costs no thread hop.
    package func openIfCached<Inflated: InflatedPage>(
        _ page: String, of docset: InstalledDocset, as type: Inflated.Type
    ) throws(DocumentError) -> PageContents<Inflated>? {
        let folder = state.withLock { state -> Folder? in
            guard let entry = state.folders[docset.path] else { return nil }
            state.clock += 1
            state.folders[docset.path] = (entry.folder, state.clock)
            return entry.folder
        }
        guard let folder else { return nil }
        if let archive = folder.archive {
            let components: [String]
            switch ContainedFile.components(page) {
            case .failure(let problem):
                throw InstalledDocset.error(problem, docset: docset.name, page: page, limit: maximumBytes)
            case .success(let parts): components = parts
            }
            let read = TarixDocuments.read(
                components, archive: archive, folder: folder.path, withoutWaitingUpTo: Self.inlineBytes,
                into: Inflated.inflated)
            switch read {
            case .success(let inflated): return (inflated ?? nil).map { .bytes($0) }
            case .failure(let failure):
                throw InstalledDocset.error(failure, docset: docset.name, page: page, limit: maximumBytes)
            }
        }
        do throws(ContainedFile.Failure) {
            if !ContainedFile.isCanonical(page) {
                _ = try ContainedFile.components(page).get()  // the page's own checks first, as `open` makes them
            }
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

    /// The extracted version folder at `path` if it is kept open now (nil when it is not, or holds a tarix store):
    /// a handle that keeps its descriptor open while referenced, for a server that remembers how to answer a page
    /// of it (``KeptFolder``). Never opens anything, never blocks.
    package func keptExtractedFolder(_ path: String) -> KeptFolder? {
        let folder = state.withLock { $0.folders[path]?.folder }
        guard let folder, folder.archive == nil else { return nil }
        return KeptFolder(folder: folder)
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
        if TarixStore.holdsDocuments(base) {
            switch TarixDocuments.open(
                base: base, folder: path, limit: maximumBytes, mappingUpTo: Self.mappedDocuments)
            {
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
    private static func open<Inflated: InflatedPage>(
        _ page: String, base: Int32, archive: TarixArchive?, folder: String, limit: Int
    ) -> Result<PageContents<Inflated>, ContainedFile.Failure> {
        let components: [String]
        switch ContainedFile.components(page) {
        case .failure(let problem): return .failure(problem)
        case .success(let parts): components = parts
        }
        if let archive {
            switch TarixDocuments.read(components, archive: archive, folder: folder, into: Inflated.inflated) {
            case .failure(let failure): return .failure(failure)
            case .success(let inflated??): return .success(.bytes(inflated))
            case .success: return .failure(.notRegular)  // not reached: a blocking read answers or throws
            }
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
    private static func openOnce<Inflated: InflatedPage>(_ page: String, folder: String, limit: Int) -> Result<
        PageContents<Inflated>, ContainedFile.Failure
    > {
        let base = Glibc.open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard base >= 0 else { return .failure(.io(SystemError("open", path: folder))) }
        defer { close(base) }
        if case .failure(let problem) = ContainedFile.components(page) { return .failure(problem) }
        guard TarixStore.holdsDocuments(base) else {
            return open(page, base: base, archive: nil, folder: folder, limit: limit)
        }
        switch TarixDocuments.open(base: base, folder: folder, limit: limit) {
        case .failure(let failure): return .failure(failure)
        case .success(let archive): return open(page, base: base, archive: archive, folder: folder, limit: limit)
        }
    }
}

/// An extracted version folder kept open by a ``PageReader`` (``PageReader/keptExtractedFolder(_:)``): its path and
/// open descriptor, which stays open while a handle refers to it (even after the reader drops the folder). Pages
/// are opened beneath it with `ContainedFile.openForReading` (`RESOLVE_BENEATH`), as the reader opens them.
package struct KeptFolder: Sendable {
    fileprivate let folder: PageReader.Folder

    /// The folder's path (`<root>/.docsync/versions/NAME@ID`).
    package var path: String { folder.path }
    /// Its open descriptor (valid while this handle exists).
    package var descriptor: Int32 { folder.descriptor }
}
