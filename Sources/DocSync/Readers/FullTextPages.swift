internal import DocSyncInstall
internal import DocSyncSupport
internal import DocSyncTarix

#if canImport(Glibc)
    import Glibc
#endif

/// Every HTML page of a docset (`.html`, `.htm`), in both layouts, by its path relative to the documents folder (as
/// `entries` gives it), each read when visited:
///
/// - extracted: `Contents/Resources/Documents/` walked without following a link; Apple's layout also has its
///   `Documentation/` folder walked (reached as `Documents/Documentation/…`, or as `Documents/…` when `Documents` is
///   the link docsync made for Zeal);
/// - tarix: the store's documents under `Contents/Resources/Documents/`, and Apple's under `Documentation/`
///   (named by `TarixPageNaming`), each inflated alone.
///
/// A page larger than `maximumBytes` is visited without its bytes (`.tooLarge`), so it is skipped with a warning
/// naming it, never read.
enum FullTextPages {
    enum Page {
        case bytes([UInt8])
        case tooLarge(Int64)
        case unreadable(String)
    }

    static func isPage(_ name: String) -> Bool {
        let lower = name.lowercased()
        return lower.hasSuffix(".html") || lower.hasSuffix(".htm")
    }

    /// How many pages ``each(docsetPath:maximumBytes:_:)`` visits in the docset folder `path` (a walk of the
    /// folders, no page read; the tarix store's list).
    static func count(docsetPath path: String) throws -> Int {
        let docset = try SafeDirectory.open(path)
        let resources = try docset.directory("Contents").directory("Resources")
        if TarixStore.holdsDocuments(docset.fd) {
            let (_, naming, paths) = try tarix(resources, limits: TarixLimits())
            return paths.count(where: { isPage($0) && naming.page(of: $0) != nil })
        }
        var pages = 0
        for (name, _) in folders(resources) {
            try resources.directory(name).walk { (entry) throws(SystemError) in
                if entry.isRegular, isPage(entry.name) { pages += 1 }
            }
        }
        return pages
    }

    /// Visits every page of the docset folder `path`.
    static func each(
        docsetPath path: String, maximumBytes: Int, _ visit: (_ page: String, _ contents: Page) throws -> Void
    ) throws {
        let docset = try SafeDirectory.open(path)
        let resources = try docset.directory("Contents").directory("Resources")
        if TarixStore.holdsDocuments(docset.fd) {
            try eachTarix(resources, maximumBytes: maximumBytes, visit)
            return
        }
        for (name, prefix) in folders(resources) {
            let folder = try resources.directory(name)
            // The visitor's own error stops the walk (as a `SystemError`, the walk's type) and is rethrown as it was.
            var failure: (any Error)?
            do {
                try folder.walk { (entry) throws(SystemError) in
                    guard entry.isRegular, isPage(entry.name) else { return }
                    let size = Int(entry.status.st_size)
                    let contents: Page
                    if size > maximumBytes {
                        contents = .tooLarge(Int64(size))
                    } else {
                        do {
                            guard let bytes = try entry.parent.readFile(entry.name, limit: maximumBytes) else { return }
                            contents = .bytes(bytes)
                        } catch {
                            contents = .unreadable("\(error)")
                        }
                    }
                    do { try visit(prefix + entry.path, contents) } catch {
                        failure = error
                        throw SystemError("index", path: prefix + entry.path, code: ECANCELED)
                    }
                }
            } catch {
                throw failure ?? error
            }
        }
    }

    /// The folders an extracted docset's pages are in (under `Contents/Resources`), each with the prefix its pages'
    /// names get.
    private static func folders(_ resources: SafeDirectory) -> [(name: String, prefix: String)] {
        let layout = DocsetLayout.read(resources: resources.fd)
        var folders: [(name: String, prefix: String)] = []
        if layout.documents == .directory { folders.append(("Documents", "")) }
        if layout.documentation == .directory {
            if layout.documentsDocumentation == .link { folders.append(("Documentation", "Documentation/")) }
            if layout.documents == .link { folders.append(("Documentation", "")) }
        }
        return folders
    }

    /// The tarix store of `resources`, how its pages are named, and its documents' paths.
    private static func tarix(
        _ resources: SafeDirectory, limits: TarixLimits
    ) throws -> (TarixArchive, TarixPageNaming, [String]) {
        let archive = try TarixArchive(resources: resources, limits: limits)
        let paths = try archive.documentPaths()
        let naming = TarixPageNaming(
            hasDocuments: paths.contains { $0.hasPrefix(TarixPageNaming.documents) },
            indexIsPrefixed: ReaderLayoutPreparation.indexIsPrefixed(resources))
        return (archive, naming, paths)
    }

    private static func eachTarix(
        _ resources: SafeDirectory, maximumBytes: Int, _ visit: (String, Page) throws -> Void
    ) throws {
        var limits = TarixLimits()
        limits.maxDocumentBytes = Int64(maximumBytes)
        let (archive, naming, paths) = try tarix(resources, limits: limits)
        for path in paths where isPage(path) {
            guard let page = naming.page(of: path) else { continue }
            let contents: Page
            do throws(TarixError) {
                contents = .bytes(try archive.read(path))
            } catch {
                if error.kind == "too_large" {
                    contents = .tooLarge(error.message.split(separator: " ").first.flatMap { Int64($0) } ?? 0)
                } else {
                    contents = .unreadable("\(error)")
                }
            }
            try visit(page, contents)
        }
    }
}
