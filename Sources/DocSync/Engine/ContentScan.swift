import DocSyncIndex
internal import DocSyncInstall
internal import DocSyncSupport
internal import DocSyncTarix
import Foundation

/// What a version's content record (`docsync diff`) needs beyond its manifest, wired into the installer: the
/// index entries (`DocsetEntries`), and for a version keeping its documents in a tarix store, every document's
/// SHA-256 (each read from the store once: the manifest only knows the store's files).
enum ContentScan {
    static let scan: VersionContentScan = { path, fd in
        var pages: [VersionContent.Page]?
        if TarixDocuments.isTarix(fd) { pages = try tarixPages(fd: fd, path: path) }
        var entries: [VersionContent.Entry] = []
        let name = (path as NSString).lastPathComponent
        try DocsetEntries.forEach(IndexedDocset(name: name, version: nil, path: path), scratch: NSTemporaryDirectory()) {
            entries.append(
                VersionContent.Entry(
                    name: $0.name, type: $0.type, rawType: $0.rawType, page: $0.page, fragment: $0.fragment))
        }
        return (pages, entries)
    }

    /// Every document of the tarix store of the docset open as `fd`, with the SHA-256 of its bytes.
    static func tarixPages(fd: Int32, path: String) throws -> [VersionContent.Page] {
        let archive: TarixArchive
        switch TarixDocuments.open(base: fd, folder: path, limit: Int(Int32.max)) {
        case .failure(let failure): throw SystemError("open", path: "\(path): \(failure)", code: EIO)
        case .success(let opened): archive = opened
        }
        let prefix = "Contents/Resources/Documents/"
        var pages: [VersionContent.Page] = []
        for document in try archive.documentPaths() where document.hasPrefix(prefix) {
            let bytes = try archive.read(document)
            pages.append(VersionContent.Page(path: String(document.dropFirst(prefix.count)), sha256: "\(SHA256.hash(bytes))"))
        }
        return pages
    }
}
