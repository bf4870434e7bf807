import DocSyncIndex
import DocSyncSupport
import DocSyncTarix
import Foundation

/// What a version's content record (`docsync diff`) needs beyond its manifest: the index entries (`DocsetEntries`),
/// and for a version keeping its documents in a tarix store, every document's SHA-256 (each read from the store
/// once: the manifest only knows the store's files).
enum ContentScan {
    /// Appends the page lines of the docset open as `fd` at `path` to `lines` when it keeps its documents in a tarix
    /// store; false when it does not (take them from the manifest).
    static func appendTarixPageLines(path: String, fd: Int32, to lines: ContentLines) throws -> Bool {
        guard TarixStore.holdsDocuments(fd) else { return false }
        let resources = try SafeDirectory.duplicating(fd, path: path).directory("Contents").directory("Resources")
        var limits = TarixLimits()
        limits.maxDocumentBytes = Int64(Int32.max)
        let archive = try TarixArchive(resources: resources, limits: limits, mappingUpTo: 0)
        let prefix = "Contents/Resources/Documents/"
        try archive.forEachDocumentPath { document in
            guard document.hasPrefix(prefix) else { return }
            let bytes = try archive.read(document)
            let page = String(document.dropFirst(prefix.count))
            try lines.append(VersionContent.pageLine(path: page, sha256: "\(SHA256.hash(bytes))").utf8)
        }
        return true
    }

    /// Appends the entry lines of the docset at `path` to `lines`, each written as it is read (no `Entry` kept per
    /// row; no `String` per field when nothing in the line needs escaping: `VersionContent.Entry.line(_:into:)`).
    static func appendEntryLines(path: String, to lines: ContentLines) throws {
        let name = (path as NSString).lastPathComponent
        let docset = IndexedDocset(name: name, version: nil, path: path)
        var failure: SystemError?
        var line: [UInt8] = []
        try DocsetEntries.forEachBytes(docset, scratch: NSTemporaryDirectory()) { entry in
            guard failure == nil else { return }
            if !VersionContent.Entry.line(entry, into: &line) {
                let value = VersionContent.Entry(
                    name: String(decoding: entry.name, as: UTF8.self), type: entry.type, rawType: entry.rawType,
                    page: String(decoding: entry.page, as: UTF8.self),
                    fragment: entry.fragment.map { String(decoding: $0, as: UTF8.self) })
                line.removeAll(keepingCapacity: true)
                line += value.line.utf8
            }
            do throws(SystemError) { try lines.append(line) } catch { failure = error }
        }
        if let failure { throw failure }
    }
}
