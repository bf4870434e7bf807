import DocSyncSupport

/// The change log's two readings of a version's manifest, streamed from a `SortedManifest` (bounded memory at any
/// number of files), byte for byte what `TreeManifest.contentDigest` and the dictionary's page lines give.
extension SortedManifest {
    /// ``TreeManifest/contentDigest`` of the same manifest: format 1 (each path once, sorted) without `meta.json`,
    /// hashed in pieces of about 64 KiB as it is encoded. With `pages`, the same pass also appends the page lines
    /// `appendPageLines(to:)` would (a second pass only for Apple's layout, whose link is found in the first): the
    /// install's change record reads the manifest once for both.
    func contentDigest(collectingPagesInto pages: ContentLines? = nil) throws(SystemError) -> String {
        var hasher = SHA256()
        var chunk = Array((TreeManifest.header + "\n").utf8)
        var links = DocumentationLinks()
        try forEach { (item) throws(SystemError) in
            if let pages {
                links.note(item)
                try Self.appendPageLine(item, prefixes: Self.documentsOnly, to: pages)
            }
            if item.isPath(DocsetMetadata.fileName) { return }
            chunk.append(item.kind)
            chunk.append(0x20)
            switch item.kind {
            case UInt8(ascii: "F"):
                chunk += String(item.size).utf8
                chunk.append(0x20)
                chunk += item.payload
                chunk.append(0x20)
                ManifestLine.appendEncoded(item.path, to: &chunk)
            case UInt8(ascii: "L"):
                ManifestLine.appendEncoded(item.path, to: &chunk)
                chunk.append(0x20)
                ManifestLine.appendEncoded(item.payload, to: &chunk)
            default: ManifestLine.appendEncoded(item.path, to: &chunk)
            }
            chunk.append(0x0A)
            if chunk.count >= 64 << 10 {
                hasher.update(chunk)
                chunk.removeAll(keepingCapacity: true)
            }
        }
        hasher.update(chunk)
        if let pages, let extra = links.extra {
            try forEach { (item) throws(SystemError) in try Self.appendPageLine(item, prefixes: [extra], to: pages) }
        }
        return hasher.finalize().description
    }

    /// The page lines of the files below `Contents/Resources/Documents/`, as `DocsetEntry/page` names them: for
    /// Apple's layout, also the files of `Contents/Resources/Documentation/` that docsync links into the documents
    /// folder at install (`Documents/Documentation -> ../Documentation`, or `Documents -> Documentation`).
    /// Two passes: the links sort after the files they expose.
    func appendPageLines(to lines: ContentLines) throws(SystemError) {
        var links = DocumentationLinks()
        try forEach { item in links.note(item) }
        let prefixes = [(Self.documentsPrefix, "")] + (links.extra.map { [$0] } ?? [])
        try forEach { (item) throws(SystemError) in try Self.appendPageLine(item, prefixes: prefixes, to: lines) }
    }

    static let documentsPrefix = "Contents/Resources/Documents/"
    private static let documentsOnly = [(documentsPrefix, "")]

    /// The page line of `item` when it is a file below one of `prefixes` (the folder's path with its slash, and
    /// what the page's name starts with).
    private static func appendPageLine(_ item: Item, prefixes: [(String, String)], to lines: ContentLines)
        throws(SystemError)
    {
        guard item.kind == UInt8(ascii: "F") else { return }
        for (prefix, page) in prefixes {
            if item.isASCII, item.path.starts(with: prefix.utf8) {
                let rest = UnsafeRawBufferPointer(rebasing: item.path[prefix.utf8.count...])
                if let line = asciiPageLine(page: page, rest: rest, sha256: item.payload) {
                    try lines.append(line)
                    continue
                }
            }
            let rest: String
            if item.isASCII {
                guard item.path.starts(with: prefix.utf8) else { continue }
                rest = String(decoding: item.path[prefix.utf8.count...], as: UTF8.self)
            } else {
                let path = item.pathString
                guard path.hasPrefix(prefix) else { continue }
                rest = String(path.dropFirst(prefix.count))
            }
            let sha256 = String(decoding: item.payload, as: UTF8.self)
            try lines.append(VersionContent.pageLine(path: page + rest, sha256: sha256).utf8)
        }
    }

    /// `VersionContent.pageLine(path: page + rest, sha256:)`'s bytes without a String, when nothing in it needs
    /// escaping and the digest field is ASCII (nil otherwise: the String path then).
    private static func asciiPageLine(page: String, rest: UnsafeRawBufferPointer, sha256: UnsafeRawBufferPointer)
        -> [UInt8]?
    {
        func plain(_ byte: UInt8) -> Bool { byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "%") }
        guard rest.allSatisfy(plain), sha256.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        let length = VersionContent.digestLength
        var line: [UInt8] = []
        line.reserveCapacity(length + 3 + page.utf8.count + rest.count)
        line += [UInt8(ascii: "P"), 0x09]
        line += sha256.prefix(length)
        line += repeatElement(UInt8(ascii: "-"), count: max(length - sha256.count, 0))
        line.append(0x09)
        line += page.utf8
        line += rest
        return line
    }

    /// Apple's layout: the link that exposes `Contents/Resources/Documentation/` as documents, found among the
    /// manifest's links (`Documents -> Documentation` wins over `Documents/Documentation -> ../Documentation`).
    private struct DocumentationLinks {
        private(set) var extra: (String, String)?

        mutating func note(_ item: Item) {
            guard item.kind == UInt8(ascii: "L") else { return }
            let documents = "Contents/Resources/Documents"
            let documentation = "Contents/Resources/Documentation/"
            if item.isPath(documents), item.payload.elementsEqual("Documentation".utf8) {
                extra = (documentation, "")
            } else if item.isPath(documents + "/Documentation"), item.payload.elementsEqual("../Documentation".utf8),
                extra == nil
            {
                extra = (documentation, "Documentation/")
            }
        }
    }
}
