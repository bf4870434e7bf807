import DocSyncSupport

/// The change log's two readings of a version's manifest, streamed from a `SortedManifest` (bounded memory at any
/// number of files), byte for byte what `TreeManifest.contentDigest` and the dictionary's page lines give.
extension SortedManifest {
    /// ``TreeManifest/contentDigest`` of the same manifest: format 1 (each path once, sorted) without `meta.json`,
    /// hashed in pieces of about 64 KiB as it is encoded.
    func contentDigest() throws(SystemError) -> String {
        var hasher = SHA256()
        var chunk = Array((TreeManifest.header + "\n").utf8)
        try forEach { item in
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
        return hasher.finalize().description
    }

    /// The page lines of the files below `Contents/Resources/Documents/`, as `DocsetEntry/page` names them: for
    /// Apple's layout, also the files of `Contents/Resources/Documentation/` that docsync links into the documents
    /// folder at install (`Documents/Documentation -> ../Documentation`, or `Documents -> Documentation`).
    /// Two passes: the links sort after the files they expose.
    func appendPageLines(to lines: ContentLines) throws(SystemError) {
        let documents = "Contents/Resources/Documents"
        let documentation = "Contents/Resources/Documentation"
        var prefixes = [(documents + "/", "")]
        var extra: (String, String)?
        try forEach { item in
            guard item.kind == UInt8(ascii: "L") else { return }
            if item.isPath(documents), item.payload.elementsEqual("Documentation".utf8) {
                extra = (documentation + "/", "")
            } else if item.isPath(documents + "/Documentation"), item.payload.elementsEqual("../Documentation".utf8),
                extra == nil
            {
                extra = (documentation + "/", "Documentation/")
            }
        }
        if let extra { prefixes.append(extra) }
        try forEach { (item) throws(SystemError) in
            guard item.kind == UInt8(ascii: "F") else { return }
            for (prefix, page) in prefixes {
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
    }
}
