import DocSyncIndex
import DocSyncSupport
import DocSyncTarix
import Foundation

/// What a version's content record (`docsync diff`) needs beyond its manifest: the index entries (`DocsetEntries`),
/// and for a version keeping its documents in a tarix store, every document's SHA-256 (each read from the store
/// once: the manifest only knows the store's files).
enum ContentScan {
    /// The pages (nil: take them from the manifest) and the entries of the docset open as `fd` at `path`.
    static func scan(
        path: String, fd: Int32
    ) throws -> (pages: [VersionContent.Page]?, entries: [VersionContent.Entry]) {
        let pages = TarixStore.holdsDocuments(fd) ? try tarixPages(fd: fd, path: path) : nil
        var entries: [VersionContent.Entry] = []
        let name = (path as NSString).lastPathComponent
        let docset = IndexedDocset(name: name, version: nil, path: path)
        try DocsetEntries.forEach(docset, scratch: NSTemporaryDirectory()) {
            entries.append(
                VersionContent.Entry(
                    name: $0.name, type: $0.type, rawType: $0.rawType, page: $0.page, fragment: $0.fragment))
        }
        return (pages, entries)
    }

    /// Every document of the tarix store of the docset open as `fd`, with the SHA-256 of its bytes.
    static func tarixPages(fd: Int32, path: String) throws -> [VersionContent.Page] {
        let resources = try SafeDirectory.duplicating(fd, path: path).directory("Contents").directory("Resources")
        var limits = TarixLimits()
        limits.maxDocumentBytes = Int64(Int32.max)
        let archive = try TarixArchive(resources: resources, limits: limits, mappingUpTo: 0)
        let prefix = "Contents/Resources/Documents/"
        var pages: [VersionContent.Page] = []
        for document in try archive.documentPaths() where document.hasPrefix(prefix) {
            let bytes = try archive.read(document)
            pages.append(
                VersionContent.Page(path: String(document.dropFirst(prefix.count)), sha256: "\(SHA256.hash(bytes))"))
        }
        return pages
    }
}
