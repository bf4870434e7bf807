import DocSyncIndex

extension InstalledDocset {
    /// The root folder this docset is installed in: ``path`` without `/.docsync/versions/<NAME@ID>`, or the folder
    /// holding `<name>.docset` for a docset installed by something else.
    public var root: String {
        if let range = path.range(of: "/.docsync/versions/", options: .backwards) {
            return String(path[..<range.lowerBound])
        }
        let parent = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return parent.isEmpty ? "/" : parent
    }

    /// The stable path readers open, `<root>/<name>.docset`: a link docsync moves to each new version atomically
    /// (Zeal loads docsets through it). Unlike ``path``, it never goes away while the docset stays installed, but its
    /// content changes when a sync installs a new version.
    public var linkPath: String { "\(root)/\(name).docset" }

    /// The docset's documents folder through ``linkPath``: `<root>/<name>.docset/Contents/Resources/Documents`, the
    /// folder ``DocsetEntry/page`` is relative to and Zeal serves pages from. For Apple's layout (pages in
    /// `Contents/Resources/Documentation/`) docsync creates it at install, linking `Documentation/` into it.
    public var documentsPath: String { "\(linkPath)/Contents/Resources/Documents" }

    /// Every entry of this docset's index, streamed in constant memory (``DocsetEntries``); URLs point into this
    /// version's folder (``path``). `scratchDirectory`: where an index in WAL mode is copied to be read (only
    /// docsets docsync did not install have one).
    public func entries(scratchDirectory: String? = nil) -> DocsetEntries {
        DocsetEntries(
            docset: IndexedDocset(name: name, version: version, path: path), scratchDirectory: scratchDirectory)
    }
}
