import Foundation

/// What Zeal makes of an installed docset, by its own load rules (`Docset::Docset`, zealdocs/zeal
/// `src/libs/registry/docset.cpp`): whether it can load it (`Contents/Resources/Documents` must exist) and the start
/// page it opens (`Info.plist`'s `dashIndexFilePath`, else `meta.json`'s `extra.indexFilePath`, else `index.html`,
/// each only if it exists under `Documents/`), resolved to a file like every entry (`EntryResolver`). Read-only.
package struct ReaderView: Sendable, Equatable {
    /// Zeal finds `Contents/Resources/Documents` (a folder, or docsync's link to one), or (its main branch) a tarix
    /// store, `Contents/Resources/tarix.tgz` and `tarixIndex.db`.
    package var loadable: Bool
    /// The start page relative to `Documents/`; nil when Zeal finds none (it shows "not found").
    package var startPage: String?
    /// The start page's file URL; nil when there is none.
    package var startURL: URL?

    /// Inspects the docset folder `docsetPath`.
    package static func inspect(docsetPath: String) -> ReaderView {
        let fm = FileManager.default
        let documents = "\(docsetPath)/Contents/Resources/Documents"
        var isDirectory: ObjCBool = false
        let loadable = fm.fileExists(atPath: documents, isDirectory: &isDirectory) && isDirectory.boolValue
        guard loadable else {
            // Zeal's main branch (and Dash) load a tarix docset: `tarix.tgz` + `tarixIndex.db`, no `Documents/`
            // (its start page is inside the archive: not resolved to a file here).
            let resources = "\(docsetPath)/Contents/Resources"
            let tarix =
                fm.fileExists(atPath: "\(resources)/tarix.tgz") && fm.fileExists(atPath: "\(resources)/tarixIndex.db")
            return ReaderView(loadable: tarix)
        }
        var candidates: [String?] = []
        let plistFile =
            fm.fileExists(atPath: "\(docsetPath)/Contents/Info.plist")
            ? "\(docsetPath)/Contents/Info.plist" : "\(docsetPath)/Contents/info.plist"
        if let data = fm.contents(atPath: plistFile),
            let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
        {
            candidates.append(plist["dashIndexFilePath"] as? String)
        }
        if let data = fm.contents(atPath: "\(docsetPath)/meta.json"),
            let meta = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        {
            candidates.append((meta["extra"] as? [String: Any])?["indexFilePath"] as? String)
        }
        candidates.append("index.html")
        guard let page = candidates.compactMap({ $0 }).first(where: { fm.fileExists(atPath: "\(documents)/\($0)") })
        else { return ReaderView(loadable: true) }
        let resolved = EntryResolver.resolve(
            EntryLocation(rawPath: page, rawFragment: nil), layout: DocsetLayout.read(docsetPath: docsetPath))
        return ReaderView(loadable: true, startPage: page, startURL: resolved.url(docsetPath: docsetPath))
    }

    init(loadable: Bool, startPage: String? = nil, startURL: URL? = nil) {
        self.loadable = loadable
        self.startPage = startPage
        self.startURL = startURL
    }
}
