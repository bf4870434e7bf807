import DocSyncSupport

/// Decides, record by record and without touching the disk, what a tarix index holds. Pure, with table tests.
///
/// The rules are extraction's (no absolute path, no `..`, no NUL, no empty component, bounded name, path and
/// depth) plus what Zeal's tarix reader needs: every path under one `X.docset/` folder (optionally behind `./`,
/// the same for every entry: Zeal strips one prefix), no nested `X.docset/Y.docset/`, UTF-8 names (the index
/// stores text), and only regular files and directories (a reader cannot follow links). AppleDouble (`._x`) files
/// and `__MACOSX/` are left out of the index, as extraction leaves them out of the tree.
package struct TarixPathPolicy: Sendable {
    /// What to do with one record.
    package enum Verdict: Sendable, Equatable {
        /// Index the path with its record's location.
        case document
        /// Index the path with an empty hash (a directory: Zeal's reader skips those).
        case directory
        /// Leave the record out of the index (AppleDouble, `__MACOSX/`, `./`, pax global headers).
        case skip
    }

    private let limits: TarixLimits
    /// `X.docset/` or `./X.docset/`, fixed by the first entry under a docset folder.
    package private(set) var rootPrefix: [UInt8]?

    package init(limits: TarixLimits = TarixLimits()) { self.limits = limits }

    private static let slash = UInt8(ascii: "/")
    private static let dot: [UInt8] = [UInt8(ascii: ".")]
    private static let dotDot: [UInt8] = [UInt8(ascii: "."), UInt8(ascii: ".")]
    private static let docsetSuffix = Array(".docset".utf8)

    package mutating func evaluate(_ record: TarRecord) throws(TarixError) -> Verdict {
        if record.kind == .globalHeader { return .skip }
        let subject = record.displayPath
        let path = record.path
        if path.contains(0) { throw .unsafePath(subject, "NUL byte in name") }
        if path.first == Self.slash { throw .unsafePath(subject, "absolute path") }
        if path.count > limits.maxPathBytes { throw .unsafePath(subject, "path over \(limits.maxPathBytes) bytes") }
        guard String(validating: path, as: UTF8.self) != nil else {
            throw .unsupportedEntry(subject, "name is not UTF-8 (the tarix index stores text)")
        }
        var parts = path.split(separator: Self.slash, omittingEmptySubsequences: false).map(Array.init)
        if parts.count > 1, parts.last?.isEmpty == true { parts.removeLast() }
        var dotSlash = false
        if parts.first == Self.dot {
            dotSlash = true
            parts.removeFirst()
        }
        for part in parts {
            if part.isEmpty { throw .unsafePath(subject, "empty path component") }
            if part == Self.dotDot { throw .unsafePath(subject, "'..' component") }
            if part == Self.dot { throw .unsafePath(subject, "'.' component inside the path") }
            if part.count > limits.maxNameBytes {
                throw .unsafePath(subject, "name component over \(limits.maxNameBytes) bytes")
            }
        }
        if parts.count > limits.maxDepth { throw .unsafePath(subject, "path deeper than \(limits.maxDepth)") }
        if parts.isEmpty {
            guard record.kind == .directory else { throw .unsafePath(subject, "the archive's root is not a folder") }
            return .skip
        }
        if parts[0] == Array("__MACOSX".utf8) { return .skip }
        if let last = parts.last, last.starts(with: Array("._".utf8)) { return .skip }

        let top = parts[0]
        let prefix = (dotSlash ? Array("./".utf8) : []) + top + [Self.slash]
        if let rootPrefix {
            guard prefix == rootPrefix else {
                throw .unsafePath(subject, "outside the archive's docset folder '\(Self.text(rootPrefix))'")
            }
        } else {
            guard top.count > Self.docsetSuffix.count, top.suffix(Self.docsetSuffix.count) == Self.docsetSuffix[...]
            else { throw .unsafePath(subject, "not inside an 'X.docset/' folder (the tarix layout needs one)") }
            rootPrefix = prefix
        }
        if parts.count > 1, parts[1].count > Self.docsetSuffix.count,
            parts[1].suffix(Self.docsetSuffix.count) == Self.docsetSuffix[...]
        {
            throw .unsupportedEntry(subject, "nested docset folder (Zeal's tarix reader strips only one)")
        }
        switch record.kind {
        case .regular:
            guard parts.count > 1 else { throw .unsafePath(subject, "the docset folder itself is not a folder") }
            guard record.blockCount <= limits.maxRecordBlocks else {
                throw .unsupportedEntry(
                    subject,
                    "\(record.size) bytes: over the \(limits.maxRecordBlocks * 512)-byte record Zeal's tarix "
                        + "reader reads")
            }
            return .document
        case .directory: return .directory
        case .symlink(let target):
            throw .unsupportedEntry(subject, "symbolic link (to '\(Self.text(target))'): a tarix store holds no links")
        case .hardlink: throw .unsupportedEntry(subject, "hard links are not allowed")
        case .sparse: throw .unsupportedEntry(subject, "sparse files are not allowed")
        case .other(let flag): throw .unsupportedEntry(subject, "tar entry type '\(Self.text([flag]))' is not allowed")
        case .globalHeader: return .skip
        }
    }

    private static func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self).escapingControlCharacters
    }
}
