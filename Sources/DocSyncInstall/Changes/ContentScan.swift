import DocSyncIndex
import DocSyncSupport
import DocSyncTarix
import Foundation

/// What a version's content record (`docsync diff`) needs beyond its manifest: the index entries (`DocsetEntries`),
/// and for a version keeping its documents in a tarix store, every document's SHA-256 (each read from the store
/// once: the manifest only knows the store's files).
enum ContentScan {
    /// The page lines of the docset open as `fd` at `path` when it keeps its documents in a tarix store (nil:
    /// take them from the manifest).
    static func tarixPageLines(path: String, fd: Int32) throws -> ContentLines? {
        guard TarixStore.holdsDocuments(fd) else { return nil }
        let resources = try SafeDirectory.duplicating(fd, path: path).directory("Contents").directory("Resources")
        var limits = TarixLimits()
        limits.maxDocumentBytes = Int64(Int32.max)
        let archive = try TarixArchive(resources: resources, limits: limits, mappingUpTo: 0)
        let prefix = "Contents/Resources/Documents/"
        var lines = ContentLines(keyOffset: VersionContent.pageKeyOffset)
        for document in try archive.documentPaths() where document.hasPrefix(prefix) {
            let bytes = try archive.read(document)
            let page = String(document.dropFirst(prefix.count))
            lines.append(VersionContent.pageLine(path: page, sha256: "\(SHA256.hash(bytes))").utf8)
        }
        return lines
    }

    /// The entry lines of the docset at `path`, each written as it is read (no `Entry` kept per row).
    static func entryLines(path: String) throws -> ContentLines {
        var lines = ContentLines()
        let name = (path as NSString).lastPathComponent
        let docset = IndexedDocset(name: name, version: nil, path: path)
        try DocsetEntries.forEach(docset, scratch: NSTemporaryDirectory()) {
            let entry = VersionContent.Entry(
                name: $0.name, type: $0.type, rawType: $0.rawType, page: $0.page, fragment: $0.fragment)
            lines.append(entry.line.utf8)
        }
        return lines
    }
}
